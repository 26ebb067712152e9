#ifndef CCairo_SHIM_H
#define CCairo_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#endif
