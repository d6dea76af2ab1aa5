#include "folio_network_start.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/* libgit2's internal stream type and libssh2's session, as opaque pointers (the wrappers only pass them on). */
struct git_stream;
typedef struct _LIBSSH2_SESSION LIBSSH2_SESSION;

/* Present only when the linker wraps the functions (`folio`); weak references elsewhere, never called there. */
extern int __real_git_mbedtls_stream_global_init(void) __attribute__((weak));
extern int __real_git_transport_ssh_global_init(void) __attribute__((weak));
extern int __real_git_mbedtls_stream_new(struct git_stream **out, const char *host, const char *port) __attribute__((weak));
extern int __real_git_mbedtls_stream_wrap(struct git_stream **out, struct git_stream *in, const char *host) __attribute__((weak));
extern LIBSSH2_SESSION *__real_libssh2_session_init_ex(void *(*alloc)(size_t, void **), void (*release)(void *, void **),
                                                       void *(*realloc)(void *, size_t, void **), void *abstract) __attribute__((weak));

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int result = 0;
static atomic_int asked = 0;
static atomic_int started = 0;

static void start(void) {
    if (__real_git_mbedtls_stream_global_init != NULL) result = __real_git_mbedtls_stream_global_init();
    if (result >= 0 && __real_git_transport_ssh_global_init != NULL) result = __real_git_transport_ssh_global_init();
    atomic_store(&started, 1);
}

int folio_git_start_network(void) {
    atomic_store(&asked, 1);
    pthread_once(&once, start);
    return result;
}

void folio_git_wait_for_network_start(void) {
    if (atomic_load(&asked)) pthread_once(&once, start);
}

int folio_git_network_started(void) {
    return __real_git_mbedtls_stream_global_init == NULL ? 1 : atomic_load(&started);
}

/* Called by git_libgit2_init(): put off. */
int __wrap_git_mbedtls_stream_global_init(void) { return 0; }
int __wrap_git_transport_ssh_global_init(void) { return 0; }

/* The first TLS stream or SSH session starts them first. */
int __wrap_git_mbedtls_stream_new(struct git_stream **out, const char *host, const char *port) {
    int code = folio_git_start_network();
    return code < 0 ? code : __real_git_mbedtls_stream_new(out, host, port);
}

int __wrap_git_mbedtls_stream_wrap(struct git_stream **out, struct git_stream *in, const char *host) {
    int code = folio_git_start_network();
    return code < 0 ? code : __real_git_mbedtls_stream_wrap(out, in, host);
}

LIBSSH2_SESSION *__wrap_libssh2_session_init_ex(void *(*alloc)(size_t, void **), void (*release)(void *, void **),
                                               void *(*realloc)(void *, size_t, void **), void *abstract) {
    return folio_git_start_network() < 0 ? NULL : __real_libssh2_session_init_ex(alloc, release, realloc, abstract);
}
