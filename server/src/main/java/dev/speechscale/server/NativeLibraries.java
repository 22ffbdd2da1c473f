package dev.speechscale.server;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/** Loading system libraries and looking up functions through the FFM API. */
final class NativeLibraries {
  static final Linker LINKER = Linker.nativeLinker();

  private NativeLibraries() {}

  /**
   * Loads a shared library by its soname, or fails with a message that names the Debian package
   * that provides it and the command that installs it.
   */
  static SymbolLookup load(String soname, String debianPackage) {
    return tryLoad(soname)
        .orElseThrow(() ->
            new EngineException(
                "cannot load "
                    + soname
                    + " (from the Debian package "
                    + debianPackage
                    + "); install it: apt-get install -y "
                    + debianPackage
                    + " (bin/speech-server does this when run as root)"));
  }

  static Optional<SymbolLookup> tryLoad(String soname) {
    try {
      return Optional.of(SymbolLookup.libraryLookup(soname, Arena.global()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  static MethodHandle function(SymbolLookup lookup, String name, FunctionDescriptor descriptor) {
    MemorySegment address =
        lookup
            .find(name)
            .orElseThrow(
                () -> new EngineException("symbol " + name + " not found in the loaded library"));
    return LINKER.downcallHandle(address, descriptor);
  }

  static MemorySegment symbol(SymbolLookup lookup, String name) {
    return lookup
        .find(name)
        .orElseThrow(
            () -> new EngineException("symbol " + name + " not found in the loaded library"));
  }

  /** Rethrows what a {@code MethodHandle.invokeExact} threw as an {@link EngineException}. */
  static EngineException rethrow(String call, Throwable t) {
    if (t instanceof Error e) {
      throw e;
    }
    if (t instanceof EngineException e) {
      return e;
    }
    return new EngineException(call + " failed: " + t, t);
  }
}
