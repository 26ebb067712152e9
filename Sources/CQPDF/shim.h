#ifndef CQPDF_SHIM_H
#define CQPDF_SHIM_H
#include <qpdf/qpdf-c.h>
#endif
