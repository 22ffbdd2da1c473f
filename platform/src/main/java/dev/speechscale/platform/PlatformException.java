package dev.speechscale.platform;

/**
 * The one unchecked exception of the platform boundary. {@link #reason()} says which kind of
 * failure it is, as a closed set, so callers switch on it exhaustively.
 */
public final class PlatformException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Reason reason;

  public PlatformException(Reason reason) {
    super(reason.message());
    this.reason = reason;
  }

  public PlatformException(Reason reason, Throwable cause) {
    super(reason.message(), cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  /** Why a platform call failed. */
  public sealed interface Reason {
    String message();

    /** The endpoint (or its scalable target) does not exist. */
    record NotFound(String what, String hint) implements Reason {
      @Override
      public String message() {
        return what + " not found; " + hint;
      }
    }

    /** No credentials were found for the platform. */
    record MissingCredentials(String detail) implements Reason {
      @Override
      public String message() {
        return "no credentials: " + detail;
      }
    }

    /** The platform throttled the call; retry later. */
    record Throttled(String operation) implements Reason {
      @Override
      public String message() {
        return operation + " was throttled by the platform; wait and run the command again";
      }
    }

    /** A quota would be exceeded. */
    record QuotaExceeded(String quota, int requested, int limit) implements Reason {
      @Override
      public String message() {
        return quota
            + ": "
            + requested
            + " requested but the quota is "
            + limit
            + "; request a quota increase or lower max_instances";
      }
    }

    /** The platform is not reachable (a supervisor died, a network failed). */
    record Unavailable(String detail) implements Reason {
      @Override
      public String message() {
        return detail;
      }
    }

    /** The call itself was wrong (bad value, unsupported transport, ...). */
    record InvalidRequest(String detail) implements Reason {
      @Override
      public String message() {
        return detail;
      }
    }
  }
}
