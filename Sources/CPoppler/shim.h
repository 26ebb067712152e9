#ifndef CPoppler_SHIM_H
#define CPoppler_SHIM_H
#include <poppler.h>
#endif
