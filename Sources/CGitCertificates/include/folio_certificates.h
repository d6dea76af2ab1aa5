#ifndef FOLIO_CERTIFICATES_H
#define FOLIO_CERTIFICATES_H

/* Puts off libgit2's parse of the system CA certificates from start-up to the first network operation.
 *
 * git_libgit2_init() parses every certificate of the system bundle with mbedTLS (Benchmarks/README.md) whether or
 * not the process will ever connect. The `folio` executable links libgit2 statically with
 * `--wrap=mbedtls_x509_crt_parse_file`, so libgit2's call comes here: while deferring is on, the bundle's path is
 * kept and an empty chain is returned (no certificate trusted: a connection made before the real parse fails its
 * verification, it is never let through). GitLibrary turns deferring on only around git_libgit2_init and has libgit2
 * parse the kept path (GIT_OPT_SET_SSL_CERT_LOCATIONS) before its first remote operation. In every other binary
 * (linked to the shared libgit2, without --wrap) nothing here is ever called and nothing is deferred. */

/* Turns deferring on (1) or off (0). */
void folio_certificates_set_deferring(int on);

/* The path libgit2 asked to parse while deferring was on, or NULL when nothing was deferred. */
const char *folio_certificates_deferred_path(void);

/* How many certificates the last parse that went through to mbedTLS loaded into its chain (0 before any). */
int folio_certificates_loaded_count(void);

#endif
