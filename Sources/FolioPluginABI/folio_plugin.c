#include "folio_plugin.h"

#include <stdlib.h>
#include <string.h>

static void folio_buffer_free(folio_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
}

folio_status folio_buffer_set(folio_buffer *buffer, const void *bytes, size_t size) {
    if (buffer == NULL) return FOLIO_STATUS_OK;
    buffer->data = NULL;
    buffer->size = 0;
    buffer->release = NULL;
    if (size == SIZE_MAX) return FOLIO_STATUS_OUT_OF_MEMORY;
    uint8_t *copy = malloc(size + 1);
    if (copy == NULL) return FOLIO_STATUS_OUT_OF_MEMORY;
    if (size > 0 && bytes != NULL) memcpy(copy, bytes, size);
    copy[size] = 0;
    buffer->data = copy;
    buffer->size = size;
    buffer->release = folio_buffer_free;
    return FOLIO_STATUS_OK;
}

folio_status folio_fail(folio_buffer *error, folio_status status, const char *message) {
    if (message == NULL) message = "";
    folio_buffer_set(error, message, strlen(message));
    return status;
}
