#ifndef CPangoCairo_SHIM_H
#define CPangoCairo_SHIM_H
#include <pango/pangocairo.h>
#endif
