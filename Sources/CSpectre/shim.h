#ifndef CSpectre_SHIM_H
#define CSpectre_SHIM_H
#include <libspectre/spectre.h>
#endif
