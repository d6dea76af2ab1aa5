#ifndef FOLIO_PLUGIN_H
#define FOLIO_PLUGIN_H
#endif
