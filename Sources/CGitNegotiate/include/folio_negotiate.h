#ifndef FOLIO_NEGOTIATE_H
#define FOLIO_NEGOTIATE_H

/* libgit2's GSSAPI calls (HTTP "Negotiate" authentication), linked into `folio` only: the eight functions and the one
 * name type libgit2 uses, each loading MIT's libgssapi_krb5.so.2 on first use. Loading it and its six libraries at
 * every start cost about 1 ms (Benchmarks/README.md); only a server asking for Negotiate needs them. */

/* Nothing to call: libgit2's own calls to gss_init_sec_context and the others link against negotiate.c. */

#endif
