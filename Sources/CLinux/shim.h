#ifndef GATEHOUSE_CLINUX_SHIM_H
#define GATEHOUSE_CLINUX_SHIM_H
/* No _GNU_SOURCE here: defining it changes glibc's struct layouts (fd_set's __fds_bits vs fds_bits), and
   ClangImporter then refuses to merge this module with Swift's Glibc module. GNU-only functions are
   declared explicitly below instead. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <sys/prctl.h>
/* accept4 is a GNU extension; <sys/socket.h> only declares it under _GNU_SOURCE. */
extern int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
static inline int shim_accept4_nb(int fd, struct sockaddr *addr, socklen_t *len) { return accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC); }
static inline int shim_errno(void) { return errno; }
/* prctl is variadic, which Swift cannot call: the calling thread's name (at most 15 bytes are kept). */
static inline int shim_name_current_thread(const char *name) { return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }
#include <sched.h>
#include <sys/syscall.h>
/* Linux's policy numbers, which <sched.h> names only under _GNU_SOURCE (SCHED_OTHER is POSIX). */
static const int shim_sched_batch = 3;
/* Gives the calling thread `policy` (SCHED_OTHER or SCHED_BATCH, which need no privilege). 0 or -1 with errno. */
static inline int shim_set_current_thread_policy(int policy) { struct sched_param none = {0}; return sched_setscheduler(0, policy, &none); }
/* The calling thread's kernel id (gettid is a GNU extension). */
static inline int shim_current_thread_id(void) { return (int)syscall(SYS_gettid); }
#endif
