/* The plugin ABI is header-only (folio_plugin.h: its helpers are static inline, compiled into each plugin).
 * SwiftPM needs one source file to build the FolioPluginABI target; this is it. */
#include "folio_plugin.h"
