#include "folio_negotiate.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* The GSSAPI C binding's types (RFC 2744), declared here: Folio builds without the krb5 headers. Only pointers to
 * them cross this file; the library behind them is MIT's, which libgit2 was built against. */
typedef uint32_t OM_uint32;
typedef struct { OM_uint32 length; void *elements; } gss_OID_desc, *gss_OID;
typedef void *gss_opaque; /* gss_ctx_id_t, gss_name_t, gss_cred_id_t, gss_buffer_t, gss_OID_set, channel bindings */

/* GSS_S_UNAVAILABLE: the answer of every call when the library cannot be loaded (libgit2 then reports the
 * Negotiate failure as it would report the library's own). */
#define FOLIO_GSS_S_UNAVAILABLE (((OM_uint32)16) << 16)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *library = NULL;

static void load(void) {
    library = dlopen("libgssapi_krb5.so.2", RTLD_NOW | RTLD_LOCAL);
}

/* The library's definition of `name` (loading the library the first time), NULL when it is missing. */
static void *real(const char *name) {
    pthread_once(&once, load);
    return library != NULL ? dlsym(library, name) : NULL;
}

/* The host-based service name type (1.2.840.113554.1.2.1.4): libgit2 reads this variable before any call, so it
 * points at Folio's copy until the library is loaded; gss_import_name hands the library its own. */
static gss_OID_desc hostBasedService = {10, "\x2a\x86\x48\x86\xf7\x12\x01\x02\x01\x04"};
gss_OID GSS_C_NT_HOSTBASED_SERVICE = &hostBasedService;

/* Each function: the library's, or GSS_S_UNAVAILABLE with a zero minor status. */
#define FORWARD(name, params, args)                                                                                    \
    OM_uint32 name params {                                                                                            \
        typedef OM_uint32(*Function) params;                                                                           \
        Function function = (Function)real(#name);                                                                     \
        if (function == NULL) {                                                                                        \
            if (minor != NULL) *minor = 0;                                                                             \
            return FOLIO_GSS_S_UNAVAILABLE;                                                                            \
        }                                                                                                              \
        return function args;                                                                                          \
    }

FORWARD(gss_delete_sec_context, (OM_uint32 *minor, gss_opaque *context, gss_opaque output), (minor, context, output))
FORWARD(gss_display_status, (OM_uint32 *minor, OM_uint32 status, int type, gss_OID mech, OM_uint32 *context, gss_opaque text),
        (minor, status, type, mech, context, text))
FORWARD(gss_indicate_mechs, (OM_uint32 *minor, gss_opaque *mechs), (minor, mechs))
FORWARD(gss_init_sec_context,
        (OM_uint32 *minor, gss_opaque credential, gss_opaque *context, gss_opaque target, gss_OID mech, OM_uint32 flags,
         OM_uint32 time, gss_opaque bindings, gss_opaque input, gss_OID *actualMech, gss_opaque output, OM_uint32 *returnedFlags,
         OM_uint32 *timeReceived),
        (minor, credential, context, target, mech, flags, time, bindings, input, actualMech, output, returnedFlags, timeReceived))
FORWARD(gss_release_buffer, (OM_uint32 * minor, gss_opaque buffer), (minor, buffer))
FORWARD(gss_release_name, (OM_uint32 * minor, gss_opaque *name), (minor, name))
FORWARD(gss_release_oid_set, (OM_uint32 * minor, gss_opaque *set), (minor, set))

/* As the library's, with Folio's copy of the host-based service type replaced by the library's own. */
OM_uint32 gss_import_name(OM_uint32 *minor, gss_opaque input, gss_OID type, gss_opaque *output) {
    typedef OM_uint32 (*Function)(OM_uint32 *, gss_opaque, gss_OID, gss_opaque *);
    Function function = (Function)real("gss_import_name");
    if (function == NULL) {
        if (minor != NULL) *minor = 0;
        return FOLIO_GSS_S_UNAVAILABLE;
    }
    if (type == &hostBasedService) {
        gss_OID *own = (gss_OID *)dlsym(library, "GSS_C_NT_HOSTBASED_SERVICE");
        if (own != NULL) type = *own;
    }
    return function(minor, input, type, output);
}
