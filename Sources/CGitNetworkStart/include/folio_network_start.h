#ifndef FOLIO_NETWORK_START_H
#define FOLIO_NETWORK_START_H
/* Puts off libgit2's start of TLS (mbedTLS: entropy gathering, random generator seeding, the parse of the system CA
 * bundle) and of SSH (libssh2, which starts OpenSSL's libcrypto) from git_libgit2_init() to the first remote
 * operation: most commands never connect, and those starts were most of git_libgit2_init()'s CPU
 * (Benchmarks/README.md).
 *
 * The `folio` executable links libgit2 statically with `--wrap` on the two start functions and on the three
 * functions that open a TLS stream or an SSH session (Package.swift). At git_libgit2_init() the start functions do
 * nothing; folio_git_start_network() runs them, once per process, and so does each of the three wrapped functions
 * before it goes on, so no TLS or SSH use can come before its start, whichever path reaches it. In every other
 * binary (linked to the shared libgit2, without --wrap) nothing here is called and folio_git_start_network() does
 * nothing. */

/* Runs libgit2's TLS and SSH starts if they were put off and have not run yet (once per process, thread-safe);
 * returns 0, or the first negative libgit2 error code (git_error_last() says why). */
int folio_git_start_network(void);

/* Waits until a start some thread asked for has finished; returns at once when none was asked for (it never starts
 * them itself). For the process's exit: OpenSSL's exit handlers, which the SSH start registers, must not run while
 * another thread is still starting it. */
void folio_git_wait_for_network_start(void);

/* Whether the starts have run in this process (1) or are still put off (0); always 1 where nothing is put off. */
int folio_git_network_started(void);
#endif
