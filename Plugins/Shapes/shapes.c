#include "folio_plugin.h"
