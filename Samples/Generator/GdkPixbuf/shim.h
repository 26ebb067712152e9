#ifndef GeneratorGdkPixbuf_SHIM_H
#define GeneratorGdkPixbuf_SHIM_H
#include <gdk-pixbuf/gdk-pixbuf.h>
#endif
