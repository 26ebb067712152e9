#ifndef CGStreamer_SHIM_H
#define CGStreamer_SHIM_H
// GStreamer (core, app and pbutils), loaded on first use by the media engine: no quire process
// that shows no video or audio maps it. Its headers need pkg-config's include paths (and
// libgstreamer1.0-dev), and pkg-config would link the libraries, so the entry points Quire uses
// are declared here as in GStreamer 1.22 (all stable since 1.0), with the few enum values and
// the one struct (GstMapInfo) whose layout the calls need.
#include <dlfcn.h>
#include <stdint.h>
#include "../CQuireSystem/library_loading.h"
#include <glib-object.h>

typedef struct _GstElement GstElement;
typedef struct _GstBus GstBus;
typedef struct _GstMessage GstMessage;
typedef struct _GstSample GstSample;
typedef struct _GstBuffer GstBuffer;
typedef struct _GstCaps GstCaps;
typedef struct _GstStructure GstStructure;
typedef struct _GstTagList GstTagList;
typedef struct _GstMiniObject GstMiniObject;
typedef struct _GstDiscoverer GstDiscoverer;
typedef struct _GstDiscovererInfo GstDiscovererInfo;
typedef struct _GstDiscovererStreamInfo GstDiscovererStreamInfo;
typedef uint64_t GstClockTime;

/// GstMapInfo's layout (gstmemory.h): the mapped bytes of a buffer.
typedef struct {
    void *_Nullable memory;
    int flags;
    uint8_t *_Nullable data;
    size_t size;
    size_t maxsize;
    void *_Nullable user_data[4];
    void *_Nullable _gst_reserved[4];
} quire_gst_map_info;

static const int quire_gst_state_null = 1;
static const int quire_gst_state_paused = 3;
static const int quire_gst_state_playing = 4;
static const int quire_gst_state_change_failure = 0;
static const int quire_gst_state_change_success = 1;
static const int quire_gst_state_change_async = 2;
static const int quire_gst_state_change_no_preroll = 3;
static const int quire_gst_format_time = 3;
/// GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE: the frame at the position, not a key frame.
static const int quire_gst_seek_flush_accurate = 1 | 2;
/// GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT: the nearest key frame (fast).
static const int quire_gst_seek_flush_key_unit = 1 | 4;
static const int quire_gst_map_read = 1;
static const int quire_gst_message_error = 1 << 1;
static const int quire_gst_message_warning = 1 << 2;
/// GST_PARSE_ERROR_DELAYED_LINK: a pipeline description's pad that appeared later (a decoder's
/// video) could not be linked, or never appeared; posted as a warning, and the pipeline waits.
static const int quire_gst_parse_error_delayed_link = 7;
static const uint64_t quire_gst_clock_time_none = UINT64_MAX;
static const uint64_t quire_gst_second = 1000000000ULL;
/// GstDiscovererResult.
static const int quire_gst_discoverer_ok = 0;
static const int quire_gst_discoverer_timeout = 3;
static const int quire_gst_discoverer_missing_plugins = 5;

#define QUIRE_GST_CORE_FUNCTIONS(X) \
    X(gboolean, gst_init_check, (int *_Nullable argc, char **_Nullable *_Nullable argv, GError *_Nullable *_Nullable error)) \
    X(GstElement *_Nullable, gst_parse_launch, (const char *_Nonnull description, GError *_Nullable *_Nullable error)) \
    X(GstElement *_Nullable, gst_bin_get_by_name, (GstElement *_Nonnull bin, const char *_Nonnull name)) \
    X(void, gst_util_set_object_arg, (GObject *_Nonnull object, const char *_Nonnull name, const char *_Nonnull value)) \
    X(int, gst_element_set_state, (GstElement *_Nonnull element, int state)) \
    X(int, gst_element_get_state, (GstElement *_Nonnull element, int *_Nullable state, int *_Nullable pending, GstClockTime timeout)) \
    X(gboolean, gst_element_seek_simple, (GstElement *_Nonnull element, int format, int flags, int64_t position)) \
    X(gboolean, gst_element_query_duration, (GstElement *_Nonnull element, int format, int64_t *_Nullable duration)) \
    X(GstBus *_Nullable, gst_element_get_bus, (GstElement *_Nonnull element)) \
    X(GstMessage *_Nullable, gst_bus_pop_filtered, (GstBus *_Nonnull bus, int types)) \
    X(void, gst_message_parse_error, (GstMessage *_Nonnull message, GError *_Nullable *_Nullable error, char *_Nullable *_Nullable debug)) \
    X(void, gst_message_parse_warning, (GstMessage *_Nonnull message, GError *_Nullable *_Nullable error, char *_Nullable *_Nullable debug)) \
    X(GQuark, gst_parse_error_quark, (void)) \
    X(const GstStructure *_Nullable, gst_message_get_structure, (GstMessage *_Nonnull message)) \
    X(void, gst_mini_object_unref, (GstMiniObject *_Nonnull object)) \
    X(GstBuffer *_Nullable, gst_sample_get_buffer, (GstSample *_Nonnull sample)) \
    X(GstCaps *_Nullable, gst_sample_get_caps, (GstSample *_Nonnull sample)) \
    X(GstStructure *_Nullable, gst_caps_get_structure, (const GstCaps *_Nonnull caps, unsigned index)) \
    X(gboolean, gst_structure_get_int, (const GstStructure *_Nonnull structure, const char *_Nonnull field, int *_Nonnull value)) \
    X(const char *_Nullable, gst_structure_get_name, (const GstStructure *_Nonnull structure)) \
    X(gboolean, gst_buffer_map, (GstBuffer *_Nonnull buffer, quire_gst_map_info *_Nonnull info, int flags)) \
    X(void, gst_buffer_unmap, (GstBuffer *_Nonnull buffer, quire_gst_map_info *_Nonnull info)) \
    X(gboolean, gst_tag_list_get_string, (const GstTagList *_Nonnull list, const char *_Nonnull tag, char *_Nullable *_Nonnull value)) \
    X(gboolean, gst_tag_list_get_uint, (const GstTagList *_Nonnull list, const char *_Nonnull tag, unsigned *_Nonnull value)) \
    X(gboolean, gst_tag_list_get_sample, (const GstTagList *_Nonnull list, const char *_Nonnull tag, GstSample *_Nullable *_Nonnull sample)) \

#define QUIRE_GST_APP_FUNCTIONS(X) \
    X(GstSample *_Nullable, gst_app_sink_try_pull_preroll, (GstElement *_Nonnull sink, GstClockTime timeout)) \
    X(GstSample *_Nullable, gst_app_sink_try_pull_sample, (GstElement *_Nonnull sink, GstClockTime timeout)) \
    X(gboolean, gst_app_sink_is_eos, (GstElement *_Nonnull sink)) \

#define QUIRE_GST_PBUTILS_FUNCTIONS(X) \
    X(void, gst_pb_utils_init, (void)) \
    X(GstDiscoverer *_Nullable, gst_discoverer_new, (GstClockTime timeout, GError *_Nullable *_Nullable error)) \
    X(GstDiscovererInfo *_Nullable, gst_discoverer_discover_uri, (GstDiscoverer *_Nonnull discoverer, const char *_Nonnull uri, GError *_Nullable *_Nullable error)) \
    X(int, gst_discoverer_info_get_result, (const GstDiscovererInfo *_Nonnull info)) \
    X(GstClockTime, gst_discoverer_info_get_duration, (const GstDiscovererInfo *_Nonnull info)) \
    X(const GstTagList *_Nullable, gst_discoverer_info_get_tags, (const GstDiscovererInfo *_Nonnull info)) \
    X(GstDiscovererStreamInfo *_Nullable, gst_discoverer_info_get_stream_info, (GstDiscovererInfo *_Nonnull info)) \
    X(GList *_Nullable, gst_discoverer_info_get_video_streams, (GstDiscovererInfo *_Nonnull info)) \
    X(GList *_Nullable, gst_discoverer_info_get_audio_streams, (GstDiscovererInfo *_Nonnull info)) \
    X(void, gst_discoverer_stream_info_list_free, (GList *_Nullable infos)) \
    X(GstCaps *_Nullable, gst_discoverer_stream_info_get_caps, (GstDiscovererStreamInfo *_Nonnull info)) \
    X(const char *_Nonnull, gst_discoverer_stream_info_get_stream_type_nick, (GstDiscovererStreamInfo *_Nonnull info)) \
    X(const GstTagList *_Nullable, gst_discoverer_container_info_get_tags, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(unsigned, gst_discoverer_video_info_get_width, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(unsigned, gst_discoverer_video_info_get_height, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(unsigned, gst_discoverer_video_info_get_framerate_num, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(unsigned, gst_discoverer_video_info_get_framerate_denom, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(gboolean, gst_discoverer_video_info_is_image, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(unsigned, gst_discoverer_audio_info_get_channels, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(unsigned, gst_discoverer_audio_info_get_sample_rate, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(unsigned, gst_discoverer_audio_info_get_bitrate, (const GstDiscovererStreamInfo *_Nonnull info)) \
    X(char *_Nullable, gst_pb_utils_get_codec_description, (const GstCaps *_Nonnull caps)) \

typedef struct {
#define QUIRE_GST_FIELD(ret, name, args) ret (*_Nonnull name) args;
    QUIRE_GST_CORE_FUNCTIONS(QUIRE_GST_FIELD)
    QUIRE_GST_APP_FUNCTIONS(QUIRE_GST_FIELD)
    QUIRE_GST_PBUTILS_FUNCTIONS(QUIRE_GST_FIELD)
#undef QUIRE_GST_FIELD
} quire_gstreamer_api;

/// Loads libgstreamer-1.0, libgstapp-1.0 and libgstpbutils-1.0 and resolves every entry point
/// once; NULL when a library or a symbol is missing. GStreamer is not initialised here.
static inline const quire_gstreamer_api *_Nullable quire_gstreamer_api_load(void) {
    static quire_gstreamer_api api;
    void *core = quire_library_open("libgstreamer-1.0.so.0");
    void *app = quire_library_open("libgstapp-1.0.so.0");
    void *pbutils = quire_library_open("libgstpbutils-1.0.so.0");
    if (!core || !app || !pbutils) return NULL;
    void *symbol;
#define QUIRE_GST_CORE(ret, name, args) if (!(symbol = dlsym(core, #name))) return NULL; *(void **)&api.name = symbol;
#define QUIRE_GST_APP(ret, name, args) if (!(symbol = dlsym(app, #name))) return NULL; *(void **)&api.name = symbol;
#define QUIRE_GST_PBUTILS(ret, name, args) if (!(symbol = dlsym(pbutils, #name))) return NULL; *(void **)&api.name = symbol;
    QUIRE_GST_CORE_FUNCTIONS(QUIRE_GST_CORE)
    QUIRE_GST_APP_FUNCTIONS(QUIRE_GST_APP)
    QUIRE_GST_PBUTILS_FUNCTIONS(QUIRE_GST_PBUTILS)
#undef QUIRE_GST_CORE
#undef QUIRE_GST_APP
#undef QUIRE_GST_PBUTILS
    return &api;
}
#endif
