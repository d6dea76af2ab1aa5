/* The Shapes plugin has no public API beyond folio_plugin_entry (declared by folio_plugin.h). */
#ifndef FOLIO_SHAPES_H
#define FOLIO_SHAPES_H
#include "folio_plugin.h"
const folio_plugin_descriptor *folio_plugin_entry(void);
#endif
