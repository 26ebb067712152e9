#ifndef CGdkPixbuf_SHIM_H
#define CGdkPixbuf_SHIM_H
#include <gdk-pixbuf/gdk-pixbuf.h>
#endif
