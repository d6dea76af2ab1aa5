/* The C helper for plugin authors is header-only (include/folio_text.h, installed as include/folio/folio_text.h);
 * this file makes it a SwiftPM target, so Folio's own C plugins and the tests compile it. */
#include "folio_text.h"
