#ifndef CCUPS_SHIM_H
#define CCUPS_SHIM_H
// libcups is loaded with dlopen the first time Quire talks to the print system. Linked, it
// would map about 25 more libraries (Kerberos, GnuTLS, Avahi, …) into every quire process —
// milliseconds and megabytes for each thumbnail, and attack surface for code that never prints.
// The header gives the types; the entry points Quire uses are resolved once, with dlsym, into a
// table whose fields have exactly the functions' types.
#include <cups/cups.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

#define QUIRE_CUPS_FUNCTIONS(X) \
    X(cupsAddOption) \
    X(cupsCancelDestJob) \
    X(cupsCheckDestSupported) \
    X(cupsCopyDestInfo) \
    X(cupsCreateDestJob) \
    X(cupsDoRequest) \
    X(cupsEncryption) \
    X(cupsFindDestDefault) \
    X(cupsFindDestSupported) \
    X(cupsFinishDestDocument) \
    X(cupsFreeDestInfo) \
    X(cupsFreeDests) \
    X(cupsFreeOptions) \
    X(cupsGetDest) \
    X(cupsGetDestMediaByIndex) \
    X(cupsGetDestMediaByName) \
    X(cupsGetDestMediaCount) \
    X(cupsGetDestMediaDefault) \
    X(cupsGetDests2) \
    X(cupsGetNamedDest) \
    X(cupsGetOption) \
    X(cupsGetResponse) \
    X(cupsLastError) \
    X(cupsLastErrorString) \
    X(cupsRemoveOption) \
    X(cupsServer) \
    X(cupsSetDests2) \
    X(cupsSetServer) \
    X(cupsStartDestDocument) \
    X(cupsUser) \
    X(cupsWriteRequestData) \
    X(httpClose) \
    X(httpConnect2) \
    X(httpError) \
    X(httpGetFd) \
    X(httpSetTimeout) \
    X(ippAddInteger) \
    X(ippAddString) \
    X(ippAddStrings) \
    X(ippDateToTime) \
    X(ippDelete) \
    X(ippErrorString) \
    X(ippFirstAttribute) \
    X(ippGetBoolean) \
    X(ippGetCount) \
    X(ippGetDate) \
    X(ippGetGroupTag) \
    X(ippGetInteger) \
    X(ippGetName) \
    X(ippGetRange) \
    X(ippGetStatusCode) \
    X(ippGetString) \
    X(ippGetValueTag) \
    X(ippNewRequest) \
    X(ippNextAttribute) \
    X(ippPort) \

typedef struct {
#define QUIRE_CUPS_FIELD(name) __typeof__(name) *_Nonnull name;
    QUIRE_CUPS_FUNCTIONS(QUIRE_CUPS_FIELD)
#undef QUIRE_CUPS_FIELD
} quire_cups_api;

/// Loads libcups.so.2 (RTLD_LOCAL) and resolves every entry point once; NULL when the library
/// or a symbol is missing. The table lives for the life of the process.
///
/// Flags: ``quire_library_open_flags`` (lazy binding, as `lp` is bound: RTLD_NOW bound every
/// function of libcups's 24 dependencies up front, 2.3 M instructions of `quire print`).
static inline const quire_cups_api *_Nullable quire_cups_api_load(void) {
    static quire_cups_api api;
    void *library = quire_library_open("libcups.so.2");
    if (!library) return NULL;
    void *symbol;
#define QUIRE_CUPS_LOAD(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    *(void **)&api.name = symbol;
    QUIRE_CUPS_FUNCTIONS(QUIRE_CUPS_LOAD)
#undef QUIRE_CUPS_LOAD
    return &api;
}

#pragma clang diagnostic pop
#endif
