// SPDX-License-Identifier: GPL-2.0
/*
 * Running the measured command: fork, wait for the go, exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "workload.h"

static void __attribute__((noreturn)) child_run(const char **argv, int go_fd,
						 int err_fd, unsigned int flags)
{
	char c;
	int err;

	/* Block until the parent has attached its counters. */
	if (read(go_fd, &c, 1) != 1)
		_exit(127);
	close(go_fd);
	if ((flags & WORKLOAD_STDOUT_TO_STDERR) &&
	    dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(127);
	execvp(argv[0], (char **)argv);
	err = errno;
	if (write(err_fd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

int workload__prepare(struct workload *wl, const char **argv,
		      unsigned int flags)
{
	int go[2], err[2];

	memset(wl, 0, sizeof(*wl));
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	wl->pid = fork();
	if (wl->pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -e;
	}
	if (wl->pid == 0) {
		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		child_run(argv, go[0], err[1], flags);
	}
	close(go[0]);
	close(err[1]);
	wl->go_fd = go[1];
	wl->err_fd = err[0];
	return 0;
}

/*
 * Release the child.  Returns 0 once it has exec'd, or -errno of a failed
 * exec (the child then exits 127 and is reaped here).
 */
int workload__start(struct workload *wl)
{
	ssize_t n;
	int e;

	if (write(wl->go_fd, "g", 1) != 1)
		return -errno;
	close(wl->go_fd);
	wl->go_fd = -1;
	/* EOF means the exec succeeded and closed the pipe (O_CLOEXEC). */
	do {
		n = read(wl->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(wl->err_fd);
	wl->err_fd = -1;
	if (n == sizeof(e)) {
		wl->exec_errno = e;
		workload__wait(wl, NULL);
		return -e;
	}
	return 0;
}

/*
 * Reap the child.  With @interrupted, a signal to us ends the wait early
 * (and sets it) so the caller can pass the signal on; without, the wait
 * goes on until the child is gone.
 */
int workload__wait(struct workload *wl, bool *interrupted)
{
	while (!wl->reaped) {
		if (wait4(wl->pid, &wl->status, 0, &wl->rusage) == wl->pid) {
			wl->reaped = true;
			break;
		}
		if (errno != EINTR)
			return -errno;
		if (interrupted) {
			*interrupted = true;
			return -EINTR;
		}
	}
	return 0;
}

/* The exit code a shell would report for the command. */
int workload__exit_code(const struct workload *wl)
{
	if (wl->exec_errno)
		return 127;
	if (WIFEXITED(wl->status))
		return WEXITSTATUS(wl->status);
	if (WIFSIGNALED(wl->status))
		return 128 + WTERMSIG(wl->status);
	return 1;
}

/* Reap the child if it has exited; true once it is gone. */
bool workload__poll(struct workload *wl)
{
	if (!wl->reaped &&
	    wait4(wl->pid, &wl->status, WNOHANG, &wl->rusage) == wl->pid)
		wl->reaped = true;
	return wl->reaped;
}

void workload__kill(struct workload *wl)
{
	if (wl->pid > 0 && !wl->reaped) {
		if (wl->go_fd >= 0)
			close(wl->go_fd);
		wl->go_fd = -1;
		kill(wl->pid, SIGTERM);
		workload__wait(wl, NULL);
	}
}
