#ifndef CAdwaita_SHIM_H
#define CAdwaita_SHIM_H
// libadwaita 1 (GNOME's widgets: status pages, toasts), for the Quick Look window only (the
// quire-look executable): the quire binary never links it. Linked through pkg-config libadwaita-1.
// GTK itself comes from the CGtk module: its shim is included so that GTK's declarations belong
// to one module, not to two.
#include "../CGtk/shim.h"
#include <adwaita.h>
#endif
