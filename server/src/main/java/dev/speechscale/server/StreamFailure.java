package dev.speechscale.server;

/**
 * Why a stream ended early, as a metric label and as the in-band {@code error} code on the
 * WebSocket.
 */
enum StreamFailure {
  /** The client went away; synthesis was cancelled at the next chunk. */
  CLIENT_DISCONNECTED("client_disconnected"),
  /** The client read so slowly that the bounded buffer filled; synthesis was cancelled. */
  CLIENT_TOO_SLOW("client_too_slow"),
  /** The request's audio passed {@code MAX_AUDIO_S}; synthesis was stopped. */
  AUDIO_CAP_EXCEEDED("audio_cap_exceeded"),
  /** The engine call showed no progress for {@code ENGINE_STALL_S} (the watchdog). */
  ENGINE_STUCK("engine_stuck"),
  /** The engine failed. */
  ENGINE_ERROR("engine_error");

  final String code;

  StreamFailure(String code) {
    this.code = code;
  }

  /** The reason for a failure the synthesis job put into the buffer. */
  static StreamFailure of(Throwable cause) {
    return switch (cause) {
      case SynthesisJob.ClientTooSlowException slow -> CLIENT_TOO_SLOW;
      case SynthesisJob.AudioCapException cap -> AUDIO_CAP_EXCEEDED;
      case SynthesisJob.EngineStuckException stuck -> ENGINE_STUCK;
      default -> ENGINE_ERROR;
    };
  }

  /** The HTTP status of this failure when it happens before anything was committed. */
  int status() {
    return switch (this) {
      case AUDIO_CAP_EXCEEDED -> 413;
      case ENGINE_STUCK -> 503;
      case CLIENT_DISCONNECTED, CLIENT_TOO_SLOW, ENGINE_ERROR -> 500;
    };
  }
}
