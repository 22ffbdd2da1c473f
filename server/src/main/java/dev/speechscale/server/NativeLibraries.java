package dev.speechscale.server;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.Optional;

/** Loading system libraries and looking up functions through the FFM API. */
final class NativeLibraries {
  static final Linker LINKER = Linker.nativeLinker();

  private NativeLibraries() {}

  /**
   * The environment variable the speech-server image sets to the engines its packages serve (the
   * label {@code dev.speechscale.engines}); set, the process runs inside that image, where no
   * package can be installed.
   */
  static final String IMAGE_ENGINES = "SS_IMAGE_ENGINES";

  /**
   * Loads a shared library by its soname, or fails with a message that names the Debian package
   * that provides it and how to get it where the server runs.
   */
  static SymbolLookup load(String soname, String debianPackage) {
    return load(soname, debianPackage, System.getenv());
  }

  static SymbolLookup load(String soname, String debianPackage, Map<String, String> env) {
    return tryLoad(soname)
        .orElseThrow(() ->
            new EngineException(
                "cannot load "
                    + soname
                    + " (from the Debian package "
                    + debianPackage
                    + "); "
                    + installAdvice(debianPackage, env)));
  }

  /**
   * How to get {@code debianPackage}: on a machine, the apt-get command; inside the speech-server
   * image ({@link #IMAGE_ENGINES} set), where a running container installs nothing, the image
   * variant that has it.
   */
  static String installAdvice(String debianPackage, Map<String, String> env) {
    String engines = env.getOrDefault(IMAGE_ENGINES, "");
    if (engines.isBlank()) {
      return "install it: apt-get install -y "
          + debianPackage
          + " (bin/speech-server does this when run as root)";
    }
    String variant =
        ESPEAK_PACKAGES.contains(debianPackage)
            ? "the image with espeak-ng (label dev.speechscale.engines=flite,espeak,kokoro; GPL-3.0,"
                + " see THIRD-PARTY-NOTICES): `bin/image build --gpu` for ml.g*/ml.p*, or for CPU"
                + " instances `SS_IMAGE_PACKAGES=\"libflite1 libmp3lame0 libespeak-ng1"
                + " espeak-ng-data\" bin/image build --tag localhost/speech-server:espeak`"
            : "an image built with it (`bin/image build` with "
                + debianPackage
                + " in"
                + " SS_IMAGE_PACKAGES)";
    return "this container's image (engines "
        + engines
        + ") was built without "
        + debianPackage
        + " and a running container cannot install it; deploy "
        + variant
        + " (aws.image_uri / aws.gpu_image_uri in the endpoint config), or pick an engine this"
        + " image serves";
  }

  private static final java.util.Set<String> ESPEAK_PACKAGES =
      java.util.Set.of("libespeak-ng1", "espeak-ng-data");

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
