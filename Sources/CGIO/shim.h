#ifndef CGIO_SHIM_H
#define CGIO_SHIM_H
#include <gio/gio.h>
#include <glib-unix.h>
#endif
