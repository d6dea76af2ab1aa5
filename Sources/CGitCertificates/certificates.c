#include "folio_certificates.h"

#include <mbedtls/x509_crt.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Present only when the linker wraps the function (`folio`); a weak reference elsewhere, never called there. */
extern int __real_mbedtls_x509_crt_parse_file(mbedtls_x509_crt *chain, const char *path) __attribute__((weak));

static atomic_int deferring = 0;
static atomic_int loaded = 0;
/* Written only while deferring is on (inside git_libgit2_init, on the one thread running it); read afterwards. */
static char *deferred_path = NULL;

void folio_certificates_set_deferring(int on) { atomic_store(&deferring, on); }

const char *folio_certificates_deferred_path(void) { return deferred_path; }

int folio_certificates_loaded_count(void) { return atomic_load(&loaded); }

int __wrap_mbedtls_x509_crt_parse_file(mbedtls_x509_crt *chain, const char *path) {
    if (atomic_load(&deferring) && path != NULL) {
        char *copy = strdup(path);
        if (copy != NULL) {
            free(deferred_path);
            deferred_path = copy;
            return 0; /* the chain stays empty (mbedtls_x509_crt_init'ed by the caller) */
        }
    }
    if (__real_mbedtls_x509_crt_parse_file == NULL) return MBEDTLS_ERR_X509_FILE_IO_ERROR;
    int result = __real_mbedtls_x509_crt_parse_file(chain, path);
    int count = 0;
    for (const mbedtls_x509_crt *c = chain; c != NULL && c->raw.len > 0; c = c->next) count++;
    atomic_store(&loaded, count);
    return result;
}
