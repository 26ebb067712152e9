import CGtk

/// GObject signals and GTK callbacks bound to Swift closures. Each closure is boxed, the box is
/// retained by the connection and released by GLib when the handler goes (destroy notify).
/// Everything here runs on GTK's main thread, which is the main actor.
@MainActor
enum Signal {
    private final class Box<F> {
        let function: F
        init(_ function: F) { self.function = function }
    }

    private static func retain<F>(_ function: F) -> gpointer {
        Unmanaged.passRetained(Box(function)).toOpaque()
    }

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    private static func connect(_ instance: UnsafeMutableRawPointer, _ name: String, _ handler: GCallback, _ data: gpointer) {
        g_signal_connect_data(instance, name, handler, data, release, GConnectFlags(rawValue: 0))
    }

    /// A signal whose handler takes only the instance ("clicked", "activate", "value-changed").
    static func connect(_ instance: UnsafeMutableRawPointer, _ name: String, _ action: @escaping @MainActor () -> Void) {
        let handler: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function() }
        }
        connect(instance, name, unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// Adds the action `name` to a GSimpleActionGroup (or a window's action map): `action` runs
    /// when it is activated (a menu item, an accelerator).
    static func addAction(_ name: String, to actions: OpaquePointer, _ action: @escaping @MainActor () -> Void) {
        let simple = g_simple_action_new(name, nil)!
        connectIgnoringArgument(UnsafeMutableRawPointer(simple), "activate", action)
        g_action_map_add_action(actions, simple)
        g_object_unref(UnsafeMutableRawPointer(simple))
    }

    /// A signal whose handler takes the instance and one pointer argument, which `action` does
    /// not need ("notify::PROPERTY" with its GParamSpec, GSettings "changed::KEY" with the key).
    static func connectIgnoringArgument(_ instance: UnsafeMutableRawPointer, _ name: String, _ action: @escaping @MainActor () -> Void) {
        let handler: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function() }
        }
        connect(instance, name, unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// A signal whose handler takes the instance and an int (a GtkNativeDialog's "response").
    static func connectInt(_ instance: UnsafeMutableRawPointer, _ name: String, _ action: @escaping @MainActor (Int32) -> Void) {
        let handler: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
            let box = Unmanaged<Box<@MainActor (Int32) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function(value) }
        }
        connect(instance, name, unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// A signal whose handler takes only the instance and returns a boolean ("close-request").
    static func connectReturning(_ instance: UnsafeMutableRawPointer, _ name: String, _ action: @escaping @MainActor () -> Bool) {
        let handler: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            let box = Unmanaged<Box<@MainActor () -> Bool>>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { box.function() } ? 1 : 0
        }
        connect(instance, name, unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// GtkEditable "insert-text" on `text` (a GtkText, an entry's or spin button's delegate):
    /// `accept` sees what is about to be typed or pasted; when it returns false the insertion
    /// is stopped, so the field never shows it, and the bell rings.
    static func filterInsertedText(_ text: UnsafeMutablePointer<GtkWidget>, _ accept: @escaping @MainActor (String) -> Bool) {
        let handler: @convention(c) (gpointer?, UnsafePointer<CChar>?, gint, UnsafeMutablePointer<gint>?, gpointer?) -> Void = {
            instance, characters, length, _, data in
            let box = Unmanaged<Box<@MainActor (String) -> Bool>>.fromOpaque(data!).takeUnretainedValue()
            guard let instance, let characters else { return }
            let inserted = length < 0 ? String(cString: characters)
                : String(decoding: UnsafeRawBufferPointer(start: characters, count: Int(length)), as: UTF8.self)
            guard !MainActor.assumeIsolated({ box.function(inserted) }) else { return }
            g_signal_stop_emission_by_name(instance, "insert-text")
            gtk_widget_error_bell(instance.assumingMemoryBound(to: GtkWidget.self))
        }
        connect(text, "insert-text", unsafeBitCast(handler, to: GCallback.self), retain(accept))
    }

    /// GtkMenuButton's create-popup function: `action` runs each time the menu is about to
    /// open (it may change the menu's model).
    static func menuButtonOpening(_ button: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        let function: GtkMenuButtonCreatePopupFunc = { _, data in
            let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function() }
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        gtk_menu_button_set_create_popup_func(OpaquePointer(button), function, retain(action), destroy)
    }

    /// GtkDragSource "prepare": the content the drag offers (a new GdkContentProvider, which
    /// GTK takes), or nil for no drag.
    static func connectDragPrepare(_ source: OpaquePointer, _ action: @escaping @MainActor () -> UnsafeMutablePointer<GdkContentProvider>?) {
        let handler: @convention(c) (gpointer?, Double, Double, gpointer?) -> UnsafeMutablePointer<GdkContentProvider>? = { _, _, _, data in
            let box = Unmanaged<Box<@MainActor () -> UnsafeMutablePointer<GdkContentProvider>?>>.fromOpaque(data!).takeUnretainedValue()
            // As an address: a pointer is not Sendable across the isolation check.
            let address = MainActor.assumeIsolated { box.function().map { UInt(bitPattern: $0) } ?? 0 }
            return UnsafeMutablePointer(bitPattern: address)
        }
        connect(UnsafeMutableRawPointer(source), "prepare", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// GtkEventControllerKey "key-pressed": (keyval, state) → handled.
    static func connectKey(_ controller: OpaquePointer,
                           _ action: @escaping @MainActor (UInt32, GdkModifierType) -> Bool) {
        let handler: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, state, data in
            let box = Unmanaged<Box<@MainActor (UInt32, GdkModifierType) -> Bool>>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { box.function(keyval, state) } ? 1 : 0
        }
        connect(UnsafeMutableRawPointer(controller), "key-pressed", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// GtkEventControllerScroll "scroll": (dx, dy) → handled.
    static func connectScroll(_ controller: OpaquePointer,
                              _ action: @escaping @MainActor (Double, Double) -> Bool) {
        let handler: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, dx, dy, data in
            let box = Unmanaged<Box<@MainActor (Double, Double) -> Bool>>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { box.function(dx, dy) } ? 1 : 0
        }
        connect(UnsafeMutableRawPointer(controller), "scroll", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// GtkDrawingArea "resize": (width, height).
    static func connectResize(_ area: UnsafeMutableRawPointer, _ action: @escaping @MainActor (Int32, Int32) -> Void) {
        let handler: @convention(c) (gpointer?, gint, gint, gpointer?) -> Void = { _, width, height, data in
            let box = Unmanaged<Box<@MainActor (Int32, Int32) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function(width, height) }
        }
        connect(area, "resize", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// A GtkListBox "row-selected" handler: the row's index, or -1 when none.
    static func connectRowSelected(_ list: UnsafeMutableRawPointer, _ action: @escaping @MainActor (Int) -> Void) {
        let handler: @convention(c) (gpointer?, UnsafeMutablePointer<GtkListBoxRow>?, gpointer?) -> Void = { _, row, data in
            let box = Unmanaged<Box<@MainActor (Int) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            let index = row.map { Int(gtk_list_box_row_get_index($0)) } ?? -1
            MainActor.assumeIsolated { box.function(index) }
        }
        connect(list, "row-selected", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// gtk_drawing_area_set_draw_func with a closure: (cairo, width, height).
    static func setDrawFunction(_ area: UnsafeMutablePointer<GtkWidget>,
                                _ draw: @escaping @MainActor (OpaquePointer, Int32, Int32) -> Void) {
        let function: GtkDrawingAreaDrawFunc = { _, cairo, width, height, data in
            let box = Unmanaged<Box<@MainActor (OpaquePointer, Int32, Int32) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            guard let cairo else { return }
            MainActor.assumeIsolated { box.function(cairo, width, height) }
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        gtk_drawing_area_set_draw_func(cast(area), function, retain(draw), destroy)
    }

    /// Runs `action` on the main loop, from any thread (a render thread hands a page over).
    nonisolated static func post(_ action: @escaping @Sendable @MainActor () -> Void) {
        let function: GSourceFunc = { data in
            let action = Unmanaged<Box<@Sendable @MainActor () -> Void>>.fromOpaque(data!).takeRetainedValue().function
            MainActor.assumeIsolated { action() }
            return 0
        }
        // Above GTK's redraw (G_PRIORITY_HIGH_IDLE + 20): a page that arrived is in the next frame.
        g_idle_add_full(G_PRIORITY_HIGH_IDLE, function, Unmanaged.passRetained(Box(action)).toOpaque(), nil)
    }

    /// GtkGestureZoom "scale-changed": the scale since the gesture began.
    static func connectZoomGesture(_ gesture: OpaquePointer, begin: @escaping @MainActor () -> Void,
                                   changed: @escaping @MainActor (Double) -> Void) {
        // "begin" carries the event sequence before the user data.
        let started: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function() }
        }
        connect(UnsafeMutableRawPointer(gesture), "begin", unsafeBitCast(started, to: GCallback.self), retain(begin))
        let handler: @convention(c) (gpointer?, Double, gpointer?) -> Void = { _, scale, data in
            let box = Unmanaged<Box<@MainActor (Double) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function(scale) }
        }
        connect(UnsafeMutableRawPointer(gesture), "scale-changed", unsafeBitCast(handler, to: GCallback.self), retain(changed))
    }

    /// A signal with two doubles ("drag-begin", "drag-update", "drag-end" of a GtkGestureDrag).
    static func connectPoint(_ instance: UnsafeMutableRawPointer, _ name: String,
                             _ action: @escaping @MainActor (Double, Double) -> Void) {
        let handler: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, x, y, data in
            let box = Unmanaged<Box<@MainActor (Double, Double) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function(x, y) }
        }
        connect(instance, name, unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// GtkGestureClick "pressed": (presses in a row, x, y).
    static func connectPressed(_ gesture: UnsafeMutableRawPointer, _ action: @escaping @MainActor (Int, Double, Double) -> Void) {
        let handler: @convention(c) (gpointer?, gint, Double, Double, gpointer?) -> Void = { _, presses, x, y, data in
            let box = Unmanaged<Box<@MainActor (Int, Double, Double) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function(Int(presses), x, y) }
        }
        connect(gesture, "pressed", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// GtkListBox "row-activated" (a click, Enter): the row's index.
    static func connectRowActivated(_ list: UnsafeMutableRawPointer, _ action: @escaping @MainActor (Int) -> Void) {
        let handler: @convention(c) (gpointer?, UnsafeMutablePointer<GtkListBoxRow>?, gpointer?) -> Void = { _, row, data in
            let box = Unmanaged<Box<@MainActor (Int) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            guard let row else { return }
            let index = Int(gtk_list_box_row_get_index(row))
            MainActor.assumeIsolated { box.function(index) }
        }
        connect(list, "row-activated", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// GtkFlowBox "child-activated": the child's index.
    static func connectChildActivated(_ box: UnsafeMutableRawPointer, _ action: @escaping @MainActor (Int) -> Void) {
        let handler: @convention(c) (gpointer?, UnsafeMutablePointer<GtkFlowBoxChild>?, gpointer?) -> Void = { _, child, data in
            let box = Unmanaged<Box<@MainActor (Int) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            let index = child.map { Int(gtk_flow_box_child_get_index($0)) } ?? -1
            MainActor.assumeIsolated { box.function(index) }
        }
        connect(box, "child-activated", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// A list item factory's "setup" or "bind": the GtkListItem.
    static func connectListItem(_ factory: UnsafeMutableRawPointer, _ name: String,
                                _ action: @escaping @MainActor (OpaquePointer) -> Void) {
        let handler: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, item, data in
            let box = Unmanaged<Box<@MainActor (OpaquePointer) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            guard let item else { return }
            MainActor.assumeIsolated { box.function(OpaquePointer(item)) }
        }
        connect(factory, name, unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// GtkListView "activate": the activated item's position.
    static func connectActivatePosition(_ list: UnsafeMutableRawPointer, _ action: @escaping @MainActor (Int) -> Void) {
        let handler: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, position, data in
            let box = Unmanaged<Box<@MainActor (Int) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.function(Int(position)) }
        }
        connect(list, "activate", unsafeBitCast(handler, to: GCallback.self), retain(action))
    }

    /// Runs `action` once, `milliseconds` from now (on the main loop).
    static func timeout(milliseconds: UInt32, _ action: @escaping @MainActor () -> Void) {
        let function: GSourceFunc = { data in
            let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data!).takeRetainedValue()
            MainActor.assumeIsolated { box.function() }
            return 0
        }
        g_timeout_add(milliseconds, function, retain(action))
    }

    /// Runs `action` once, at the start of the frame after `widget`'s next one is drawn: the
    /// first tick comes before that frame's layout and paint, the second after it was painted
    /// (a tick callback keeps frames coming until it is removed).
    static func afterNextFrame(of widget: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        final class Ticks {
            var seen = 0
            let action: @MainActor () -> Void
            init(_ action: @escaping @MainActor () -> Void) { self.action = action }
        }
        let tick: GtkTickCallback = { _, _, data in
            let ticks = Unmanaged<Ticks>.fromOpaque(data!).takeUnretainedValue()
            ticks.seen += 1
            guard ticks.seen >= 2 else { return 1 }
            MainActor.assumeIsolated { ticks.action() }
            return 0
        }
        let release: GDestroyNotify = { data in Unmanaged<Ticks>.fromOpaque(data!).release() }
        _ = gtk_widget_add_tick_callback(widget, tick, Unmanaged.passRetained(Ticks(action)).toOpaque(), release)
    }

    /// Runs `action` once, when the main loop is idle.
    static func idle(_ action: @escaping @MainActor () -> Void) {
        let function: GSourceFunc = { data in
            let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data!).takeRetainedValue()
            MainActor.assumeIsolated { box.function() }
            return 0
        }
        g_idle_add(function, retain(action))
    }
}

/// GTK's object pointers as the untyped pointers its casting macros would produce.
@inline(__always) func cast<T>(_ pointer: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

/// GTK's final classes are opaque to Swift.
@inline(__always) func cast(_ pointer: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer {
    OpaquePointer(pointer)
}

@inline(__always) func widget<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GtkWidget> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GtkWidget.self)
}
