#ifndef CRsvg_SHIM_H
#define CRsvg_SHIM_H
#include <librsvg/rsvg.h>
#endif
