#ifndef CGtkSourceView_SHIM_H
#define CGtkSourceView_SHIM_H
// GtkSourceView 5 (syntax-highlighted text and source files), for the Quick Look window only
// (the quire-look executable), as GNOME Sushi uses it. Linked through pkg-config gtksourceview-5.
// GTK itself comes from the CGtk module: its shim is included so that GTK's declarations
// belong to one module, not to two.
#include "../CGtk/shim.h"
#include <gtksourceview/gtksource.h>
#endif
