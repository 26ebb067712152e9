#ifndef CGtk_SHIM_H
#define CGtk_SHIM_H
// GTK 4, for the Quick Look window only (the quire-look executable): the quire binary never
// links it. Linked through pkg-config gtk4.
#include <gtk/gtk.h>
#endif
