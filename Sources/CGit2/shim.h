#include <git2.h>
#include <git2/sys/commit.h>
#include <git2/sys/commit_graph.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include <git2/sys/mempack.h>

/* git_libgit2_opts is variadic, which Swift cannot call: one small wrapper per option Folio sets. */
static inline int folio_git_set_fsync_gitdir(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, enabled);
}
static inline int folio_git_set_search_path(int level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}
static inline int folio_git_set_cache_max_size(long long bytes) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)bytes);
}
static inline int folio_git_set_caching(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_CACHING, enabled);
}
static inline int folio_git_set_cache_object_limit(int type, size_t bytes) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, (git_object_t)type, bytes);
}
static inline int folio_git_set_mwindow_size(size_t bytes) {
    return git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, bytes);
}
static inline int folio_git_set_mwindow_mapped_limit(size_t bytes) {
    return git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, bytes);
}
static inline int folio_git_set_strict_object_creation(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, enabled);
}

/* Folio's socket stream (FolioGit/TransferWatch+Stream.swift), registered for every plain socket libgit2 opens (git://,
   http://, the socket under https:// and ssh://). Its first four fields are libgit2 1.5's own `git_socket_stream`
   (src/libgit2/streams/socket.h): the ssh transport hands the socket `s` found there to libssh2. */
#include <git2/sys/stream.h>
typedef struct {
    git_stream parent;
    char *host;
    char *port;
    int s;
    void *watch;   /* the transfer's watch (retained), or NULL outside a watched transfer */
} folio_socket_stream;

/* A TLS server's certificate checked against the CA file the user named (http.sslCAInfo, GIT_SSL_CAINFO,
   SSL_CERT_FILE) for one transfer, instead of libgit2's process-wide GIT_OPT_SET_SSL_CERT_LOCATIONS: `der` is the
   server's certificate as libgit2's certificate callback gives it. Returns 0 when it chains to a certificate in
   `ca_file` and names `host`; -1 when `der` is no certificate, -2 when `ca_file` holds none, else mbedTLS's error
   with its verification flags (MBEDTLS_X509_BADCERT_*) in `flags`. */
#include <mbedtls/x509_crt.h>
static inline int folio_tls_verify_with_ca_file(const unsigned char *der, size_t der_len, const char *ca_file,
                                                const char *host, unsigned int *flags) {
    mbedtls_x509_crt leaf, ca;
    mbedtls_x509_crt_init(&leaf);
    mbedtls_x509_crt_init(&ca);
    uint32_t found = 0;
    int result = mbedtls_x509_crt_parse_der(&leaf, der, der_len) == 0 ? 0 : -1;
    if (result == 0 && (mbedtls_x509_crt_parse_file(&ca, ca_file) < 0 || ca.raw.len == 0)) result = -2;
    if (result == 0) result = mbedtls_x509_crt_verify(&leaf, &ca, NULL, host, &found, NULL, NULL);
    *flags = found;
    mbedtls_x509_crt_free(&leaf);
    mbedtls_x509_crt_free(&ca);
    return result;
}
/* Folio's ssh subtransport (FolioGit/OpenSSHTransport.swift): libgit2's smart protocol over the system's `ssh`
   program, registered for ssh:// and scp-like URLs. Each struct starts with libgit2's own, then Folio's state. */
#include <git2/sys/transport.h>
typedef struct {
    git_smart_subtransport parent;
    git_transport *owner;
    git_smart_subtransport_stream *current;   /* the open stream (its `ssh` running), or NULL */
} folio_ssh_subtransport;
typedef struct {
    git_smart_subtransport_stream parent;
    void *child;    /* the running `ssh` (an SSHChild, retained until libgit2 frees the stream) */
} folio_ssh_stream;
