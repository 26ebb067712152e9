#ifndef CNSS_SHIM_H
#define CNSS_SHIM_H
// NSS (the certificate and key database Firefox, Thunderbird and Okular share, ~/.pki/nssdb)
// and its CMS encoder: `quire sign` makes a detached PKCS#7 signature of a PDF with a
// certificate from it. Loaded with dlopen on first use (see ../CQuireSystem/library_loading.h):
// no other command maps NSS. The declarations are those of NSS 3.87's <nss.h>, <pk11pub.h>,
// <cert.h>, <sechash.h>, <cms.h> and <secport.h>, written out here: those headers include
// NSPR's by a path only pkg-config knows, and pkg-config would link NSS into every quire
// process. <utilrename.h> names the PORT_ functions PORT_…_Util in the library. Handles are opaque; enumerations are passed as the int values the headers give.
#include <dlfcn.h>
#include <stdint.h>
#include <stddef.h>
#include "../CQuireSystem/library_loading.h"

typedef struct NSSInitContextStr NSSInitContext;
typedef struct CERTCertificateStr CERTCertificate;
typedef struct NSSTrustDomainStr CERTCertDBHandle;
typedef struct HASHContextStr HASHContext;
typedef struct NSSCMSMessageStr NSSCMSMessage;
typedef struct NSSCMSContentInfoStr NSSCMSContentInfo;
typedef struct NSSCMSSignedDataStr NSSCMSSignedData;
typedef struct NSSCMSSignerInfoStr NSSCMSSignerInfo;
typedef struct NSSCMSEncoderContextStr NSSCMSEncoderContext;
typedef struct PLArenaPool PLArenaPool;
typedef struct PK11SlotInfoStr PK11SlotInfo;

/// <seccomon.h>'s SECItem.
typedef struct {
    int type;
    unsigned char *_Nullable data;
    unsigned int len;
} SECItem;

/// The start of <certt.h>'s CERTCertificate: the arena, then the subject's and the issuer's
/// names in RFC 1485 form ("CN=…,O=…"), fixed once the certificate is decoded.
typedef struct {
    void *_Nullable arena;
    char *_Nullable subjectName;
    char *_Nullable issuerName;
} quire_nss_certificate_head;

/// <certt.h>'s CERTCertNicknames.
typedef struct {
    void *_Nullable arena;
    void *_Nullable head;
    int numnicknames;
    char *_Nullable *_Nullable nicknames;
    int what;
    int totallen;
} CERTCertNicknames;

/// <secmodt.h>'s PK11PasswordFunc.
typedef char *_Nullable (*PK11PasswordFunc)(PK11SlotInfo *_Nullable slot, int retry, void *_Nullable arg);

enum {
    QUIRE_NSS_INIT_READONLY = 0x1,           // <nss.h> NSS_INIT_READONLY
    QUIRE_NSS_INIT_NOROOTINIT = 0x10,        // NSS_INIT_NOROOTINIT
    QUIRE_SEC_OID_SHA256 = 191,              // <secoidt.h> SEC_OID_SHA256
    QUIRE_HASH_ALG_SHA256 = 4,               // <hasht.h> HASH_AlgSHA256
    QUIRE_CERT_USAGE_EMAIL_SIGNER = 4,       // <certt.h> certUsageEmailSigner
    QUIRE_CMS_CERT_CHAIN = 2,                // <cmst.h> NSSCMSCM_CertChain
    QUIRE_SEC_CERT_NICKNAMES_USER = 2,       // <certt.h> SEC_CERT_NICKNAMES_USER
    QUIRE_SEC_SUCCESS = 0                    // <seccomon.h> SECSuccess
};

/// Entry points, resolved with dlsym on first use.
typedef struct {
    NSSInitContext *_Nullable (*_Nonnull NSS_InitContext)(const char *_Nonnull, const char *_Nonnull, const char *_Nonnull, const char *_Nonnull, void *_Nullable, uint32_t);
    int (*_Nonnull NSS_ShutdownContext)(NSSInitContext *_Nonnull);
    void (*_Nonnull PK11_SetPasswordFunc)(PK11PasswordFunc _Nullable);
    CERTCertificate *_Nullable (*_Nonnull PK11_FindCertFromNickname)(const char *_Nonnull, void *_Nullable);
    void (*_Nonnull CERT_DestroyCertificate)(CERTCertificate *_Nonnull);
    CERTCertDBHandle *_Nullable (*_Nonnull CERT_GetDefaultCertDB)(void);
    CERTCertNicknames *_Nullable (*_Nonnull CERT_GetCertNicknames)(CERTCertDBHandle *_Nullable, int, void *_Nullable);
    void (*_Nonnull CERT_FreeNicknames)(CERTCertNicknames *_Nonnull);
    HASHContext *_Nullable (*_Nonnull HASH_Create)(int);
    void (*_Nonnull HASH_Destroy)(HASHContext *_Nonnull);
    void (*_Nonnull HASH_Begin)(HASHContext *_Nonnull);
    void (*_Nonnull HASH_Update)(HASHContext *_Nonnull, const unsigned char *_Nonnull, unsigned int);
    void (*_Nonnull HASH_End)(HASHContext *_Nonnull, unsigned char *_Nonnull, unsigned int *_Nonnull, unsigned int);
    NSSCMSMessage *_Nullable (*_Nonnull NSS_CMSMessage_Create)(PLArenaPool *_Nullable);
    void (*_Nonnull NSS_CMSMessage_Destroy)(NSSCMSMessage *_Nonnull);
    NSSCMSContentInfo *_Nullable (*_Nonnull NSS_CMSMessage_GetContentInfo)(NSSCMSMessage *_Nonnull);
    NSSCMSSignedData *_Nullable (*_Nonnull NSS_CMSSignedData_Create)(NSSCMSMessage *_Nonnull);
    void (*_Nonnull NSS_CMSSignedData_Destroy)(NSSCMSSignedData *_Nonnull);
    int (*_Nonnull NSS_CMSContentInfo_SetContent_SignedData)(NSSCMSMessage *_Nonnull, NSSCMSContentInfo *_Nonnull, NSSCMSSignedData *_Nonnull);
    NSSCMSContentInfo *_Nullable (*_Nonnull NSS_CMSSignedData_GetContentInfo)(NSSCMSSignedData *_Nonnull);
    int (*_Nonnull NSS_CMSContentInfo_SetContent_Data)(NSSCMSMessage *_Nonnull, NSSCMSContentInfo *_Nonnull, SECItem *_Nullable, int);
    NSSCMSSignerInfo *_Nullable (*_Nonnull NSS_CMSSignerInfo_Create)(NSSCMSMessage *_Nonnull, CERTCertificate *_Nonnull, int);
    void (*_Nonnull NSS_CMSSignerInfo_Destroy)(NSSCMSSignerInfo *_Nonnull);
    int (*_Nonnull NSS_CMSSignerInfo_IncludeCerts)(NSSCMSSignerInfo *_Nonnull, int, int);
    int (*_Nonnull NSS_CMSSignerInfo_AddSigningTime)(NSSCMSSignerInfo *_Nonnull, int64_t);
    int (*_Nonnull NSS_CMSSignedData_AddCertificate)(NSSCMSSignedData *_Nonnull, CERTCertificate *_Nonnull);
    int (*_Nonnull NSS_CMSSignedData_AddSignerInfo)(NSSCMSSignedData *_Nonnull, NSSCMSSignerInfo *_Nonnull);
    int (*_Nonnull NSS_CMSSignedData_SetDigestValue)(NSSCMSSignedData *_Nonnull, int, SECItem *_Nonnull);
    NSSCMSEncoderContext *_Nullable (*_Nonnull NSS_CMSEncoder_Start)(NSSCMSMessage *_Nonnull, void *_Nullable, void *_Nullable, SECItem *_Nullable, PLArenaPool *_Nullable, PK11PasswordFunc _Nullable, void *_Nullable, void *_Nullable, void *_Nullable, void *_Nullable, void *_Nullable);
    int (*_Nonnull NSS_CMSEncoder_Finish)(NSSCMSEncoderContext *_Nonnull);
    char *_Nullable (*_Nonnull PORT_Strdup)(const char *_Nonnull);
    void (*_Nonnull PORT_Free)(void *_Nullable);
    int (*_Nonnull PORT_GetError)(void);
    PLArenaPool *_Nullable (*_Nonnull PORT_NewArena)(unsigned long);
    void (*_Nonnull PORT_FreeArena)(PLArenaPool *_Nonnull, int);
    const char *_Nullable (*_Nonnull PR_ErrorToName)(int);
    int64_t (*_Nonnull PR_Now)(void);
} quire_nss_api;

/// Loads NSS, its S/MIME library, its utilities and NSPR, and resolves every entry point once;
/// NULL when one of them or a symbol is missing (`quire sign` then says what to install).
static inline const quire_nss_api *_Nullable quire_nss_api_load(void) {
    static quire_nss_api api;
    static int state;   /* 0: not tried, 1: loaded, -1: missing */
    if (state != 0) return state > 0 ? &api : NULL;
    state = -1;
    void *nss3 = quire_library_open("libnss3.so");
    void *smime3 = quire_library_open("libsmime3.so");
    void *nssutil3 = quire_library_open("libnssutil3.so");
    void *nspr4 = quire_library_open("libnspr4.so");
    if (!nss3 || !smime3 || !nssutil3 || !nspr4) return NULL;
    void *symbol;
    if (!(symbol = dlsym(nss3, "NSS_InitContext"))) return NULL;
    *(void **)&api.NSS_InitContext = symbol;
    if (!(symbol = dlsym(nss3, "NSS_ShutdownContext"))) return NULL;
    *(void **)&api.NSS_ShutdownContext = symbol;
    if (!(symbol = dlsym(nss3, "PK11_SetPasswordFunc"))) return NULL;
    *(void **)&api.PK11_SetPasswordFunc = symbol;
    if (!(symbol = dlsym(nss3, "PK11_FindCertFromNickname"))) return NULL;
    *(void **)&api.PK11_FindCertFromNickname = symbol;
    if (!(symbol = dlsym(nss3, "CERT_DestroyCertificate"))) return NULL;
    *(void **)&api.CERT_DestroyCertificate = symbol;
    if (!(symbol = dlsym(nss3, "CERT_GetDefaultCertDB"))) return NULL;
    *(void **)&api.CERT_GetDefaultCertDB = symbol;
    if (!(symbol = dlsym(nss3, "CERT_GetCertNicknames"))) return NULL;
    *(void **)&api.CERT_GetCertNicknames = symbol;
    if (!(symbol = dlsym(nss3, "CERT_FreeNicknames"))) return NULL;
    *(void **)&api.CERT_FreeNicknames = symbol;
    if (!(symbol = dlsym(nss3, "HASH_Create"))) return NULL;
    *(void **)&api.HASH_Create = symbol;
    if (!(symbol = dlsym(nss3, "HASH_Destroy"))) return NULL;
    *(void **)&api.HASH_Destroy = symbol;
    if (!(symbol = dlsym(nss3, "HASH_Begin"))) return NULL;
    *(void **)&api.HASH_Begin = symbol;
    if (!(symbol = dlsym(nss3, "HASH_Update"))) return NULL;
    *(void **)&api.HASH_Update = symbol;
    if (!(symbol = dlsym(nss3, "HASH_End"))) return NULL;
    *(void **)&api.HASH_End = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSMessage_Create"))) return NULL;
    *(void **)&api.NSS_CMSMessage_Create = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSMessage_Destroy"))) return NULL;
    *(void **)&api.NSS_CMSMessage_Destroy = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSMessage_GetContentInfo"))) return NULL;
    *(void **)&api.NSS_CMSMessage_GetContentInfo = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignedData_Create"))) return NULL;
    *(void **)&api.NSS_CMSSignedData_Create = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignedData_Destroy"))) return NULL;
    *(void **)&api.NSS_CMSSignedData_Destroy = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSContentInfo_SetContent_SignedData"))) return NULL;
    *(void **)&api.NSS_CMSContentInfo_SetContent_SignedData = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignedData_GetContentInfo"))) return NULL;
    *(void **)&api.NSS_CMSSignedData_GetContentInfo = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSContentInfo_SetContent_Data"))) return NULL;
    *(void **)&api.NSS_CMSContentInfo_SetContent_Data = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignerInfo_Create"))) return NULL;
    *(void **)&api.NSS_CMSSignerInfo_Create = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignerInfo_Destroy"))) return NULL;
    *(void **)&api.NSS_CMSSignerInfo_Destroy = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignerInfo_IncludeCerts"))) return NULL;
    *(void **)&api.NSS_CMSSignerInfo_IncludeCerts = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignerInfo_AddSigningTime"))) return NULL;
    *(void **)&api.NSS_CMSSignerInfo_AddSigningTime = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignedData_AddCertificate"))) return NULL;
    *(void **)&api.NSS_CMSSignedData_AddCertificate = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignedData_AddSignerInfo"))) return NULL;
    *(void **)&api.NSS_CMSSignedData_AddSignerInfo = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSSignedData_SetDigestValue"))) return NULL;
    *(void **)&api.NSS_CMSSignedData_SetDigestValue = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSEncoder_Start"))) return NULL;
    *(void **)&api.NSS_CMSEncoder_Start = symbol;
    if (!(symbol = dlsym(smime3, "NSS_CMSEncoder_Finish"))) return NULL;
    *(void **)&api.NSS_CMSEncoder_Finish = symbol;
    if (!(symbol = dlsym(nssutil3, "PORT_Strdup_Util"))) return NULL;
    *(void **)&api.PORT_Strdup = symbol;
    if (!(symbol = dlsym(nssutil3, "PORT_Free_Util"))) return NULL;
    *(void **)&api.PORT_Free = symbol;
    if (!(symbol = dlsym(nssutil3, "PORT_GetError_Util"))) return NULL;
    *(void **)&api.PORT_GetError = symbol;
    if (!(symbol = dlsym(nssutil3, "PORT_NewArena_Util"))) return NULL;
    *(void **)&api.PORT_NewArena = symbol;
    if (!(symbol = dlsym(nssutil3, "PORT_FreeArena_Util"))) return NULL;
    *(void **)&api.PORT_FreeArena = symbol;
    if (!(symbol = dlsym(nspr4, "PR_ErrorToName"))) return NULL;
    *(void **)&api.PR_ErrorToName = symbol;
    if (!(symbol = dlsym(nspr4, "PR_Now"))) return NULL;
    *(void **)&api.PR_Now = symbol;
    state = 1;
    return &api;
}

/// What ``quire_nss_password`` answers from and records: the password given (NULL: none) and
/// whether NSS asked for one.
typedef struct {
    const char *_Nullable password;
    int asked;
} quire_nss_password_request;

/// NSS's password callback: the password given, once (a retry means it was wrong: NULL stops
/// NSS asking again). The answer is NSS's to free (PORT_Strdup).
static inline char *_Nullable quire_nss_password(PK11SlotInfo *_Nullable slot, int retry, void *_Nullable arg) {
    (void)slot;
    quire_nss_password_request *request = (quire_nss_password_request *)arg;
    const quire_nss_api *api = quire_nss_api_load();
    if (!request || !api) return NULL;
    request->asked = 1;
    if (retry || !request->password) return NULL;
    return api->PORT_Strdup(request->password);
}
#endif
