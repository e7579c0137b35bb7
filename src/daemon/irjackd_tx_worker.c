/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_tx_worker.c - transmissions played off the service loop: one
 * thread per configured transmitter, each with a queue of at most
 * TX_QUEUE_MAX transmissions.  The loop opens the transmitter (so that a
 * missing device is the request's error) and hands it over with the
 * timings; the worker plays them and closes it.  A SEND_ONCE ... 1000 on
 * a real transmitter plays for ~110 s: on the loop, every source and
 * client waited that long (issue 24).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "irjackd.h"
#include "irjackd_service.h"

struct tx_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a job queued, a job done, or quit */
	struct tx_job *queue[TX_QUEUE_MAX];
	unsigned head, count;
	bool playing;
	enum tx_job_kind playing_kind;
	bool quit;
};

void tx_job_free(struct tx_job *job)
{
	if (!job)
		return;
	if (job->t)
		ir_tx_close(job->t);
	ir_edge_buf_free(&job->edges);
	free(job);
}

static void play(struct tx_job *job)
{
	char err[768] = "";

	if (ir_tx_send(job->t, job->edges.edges, job->edges.len, &job->carrier, err,
		       sizeof(err)) < 0)
		irjackd_log(LOG_WARNING, "transmitter %s: %s", job->tx.name, err);
}

static void *worker_main(void *arg)
{
	struct tx_worker *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct tx_job *job;

		if (!w->count) {
			if (w->quit)
				break;
			pthread_cond_wait(&w->cond, &w->lock);
			continue;
		}
		job = w->queue[w->head];
		w->head = (w->head + 1) % TX_QUEUE_MAX;
		w->count--;
		w->playing = true;
		w->playing_kind = job->kind;
		pthread_mutex_unlock(&w->lock);
		play(job);
		tx_job_free(job);
		pthread_mutex_lock(&w->lock);
		w->playing = false;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static struct tx_worker *worker_for(struct service *sv, unsigned index)
{
	struct tx_worker *w = sv->tx_workers[index];

	if (w)
		return w;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return NULL;
	}
	sv->tx_workers[index] = w;
	return w;
}

int tx_worker_submit(struct service *sv, unsigned index, struct tx_job *job, char *error,
		     size_t error_size)
{
	struct tx_worker *w = index < IRJACKD_MAX_TRANSMITTERS ? worker_for(sv, index) : NULL;
	int ret = 0;

	if (!w) {
		snprintf(error, error_size, "transmitter %s: cannot start its thread", job->tx.name);
		tx_job_free(job);
		return -ENOMEM;
	}
	pthread_mutex_lock(&w->lock);
	if (w->count == TX_QUEUE_MAX) {
		ret = -EBUSY;
	} else {
		w->queue[(w->head + w->count) % TX_QUEUE_MAX] = job;
		w->count++;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	if (ret < 0) {
		snprintf(error, error_size, "transmitter %s: busy, %d transmissions waiting",
			 job->tx.name, TX_QUEUE_MAX);
		tx_job_free(job);
	}
	return ret;
}

/* Drops SEND_START's repeats waiting in the queue (never acknowledged
 * one by one); the rest keep their order. */
static void drop_repeats(struct tx_worker *w)
{
	unsigned kept = 0;

	for (unsigned i = 0; i < w->count; i++) {
		struct tx_job *job = w->queue[(w->head + i) % TX_QUEUE_MAX];

		if (job->kind == TX_JOB_REPEAT)
			tx_job_free(job);
		else
			w->queue[(w->head + kept++) % TX_QUEUE_MAX] = job;
	}
	w->count = kept;
}

void tx_workers_stop(struct service *sv, unsigned mask, unsigned wait_ms)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += wait_ms / 1000;
	until.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	for (unsigned i = 0; i < IRJACKD_MAX_TRANSMITTERS; i++) {
		struct tx_worker *w = sv->tx_workers[i];

		if (!w || !(mask & (1u << i)))
			continue;
		pthread_mutex_lock(&w->lock);
		drop_repeats(w);
		while (w->playing && w->playing_kind != TX_JOB_ONCE &&
		       pthread_cond_timedwait(&w->cond, &w->lock, &until) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&w->lock);
	}
}

unsigned tx_workers_pending(struct service *sv, unsigned index)
{
	struct tx_worker *w = index < IRJACKD_MAX_TRANSMITTERS ? sv->tx_workers[index] : NULL;
	unsigned n;

	if (!w)
		return 0;
	pthread_mutex_lock(&w->lock);
	n = w->count + w->playing;
	pthread_mutex_unlock(&w->lock);
	return n;
}

void tx_workers_free(struct service *sv)
{
	for (unsigned i = 0; i < IRJACKD_MAX_TRANSMITTERS; i++) {
		struct tx_worker *w = sv->tx_workers[i];

		if (!w)
			continue;
		pthread_mutex_lock(&w->lock);
		drop_repeats(w);
		w->quit = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		/* what was acknowledged is played first (lircd answers a
		 * SEND_ONCE once it is sent: so did irjackd on its loop) */
		pthread_join(w->thread, NULL);
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		free(w);
		sv->tx_workers[i] = NULL;
	}
}
