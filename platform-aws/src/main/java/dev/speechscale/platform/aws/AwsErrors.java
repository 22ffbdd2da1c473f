package dev.speechscale.platform.aws;

import dev.speechscale.platform.PlatformException;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/** Maps what the AWS SDK throws to the platform's closed set of reasons. */
final class AwsErrors {
  private AwsErrors() {}

  private static final Set<String> REJECTED_CREDENTIALS =
      Set.of(
          "UnrecognizedClientException",
          "InvalidClientTokenId",
          "InvalidSignatureException",
          "SignatureDoesNotMatch",
          "ExpiredToken",
          "ExpiredTokenException",
          "IncompleteSignature");

  private static final Set<String> NOT_FOUND =
      Set.of("ObjectNotFoundException", "ResourceNotFoundException", "ResourceNotFound");

  /** SageMaker's wording: "... service limit 'ml.g5.xlarge for endpoint usage' is 2 Instances". */
  private static final Pattern LIMIT = Pattern.compile("limit '([^']+)' is (\\d+)");

  /**
   * The platform exception for a failed call.
   *
   * @param operation the API call, e.g. {@code DescribeEndpoint}
   * @param subject what it was about, e.g. {@code endpoint speech-kokoro-82m}
   * @param requested the instance count asked for, when the call sets one (else 0)
   * @param e what the SDK threw
   */
  static PlatformException map(
      String operation, String subject, int requested, RuntimeException e) {
    if (e instanceof PlatformException named) {
      return named; // already mapped where it was raised, e.g. by AwsAccess's credentials
    }
    return new PlatformException(reason(operation, subject, requested, e), e);
  }

  /** Runs one read-only AWS call, mapping what it throws. */
  static <T> T call(String operation, String subject, Supplier<T> call) {
    try {
      return call.get();
    } catch (PlatformException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AwsErrors.map(operation, subject, 0, e);
    }
  }

  /**
   * Runs a paged read-only call from its first page (no token) until a page names no next token,
   * handing each page to {@code each} as it comes; each call is mapped as {@link #call} maps it.
   */
  static <P> void eachPage(
      String operation,
      String subject,
      Function<@Nullable String, P> page,
      Function<P, @Nullable String> nextToken,
      Consumer<P> each) {
    String token = null;
    do {
      String asked = token;
      P got = call(operation, subject, () -> page.apply(asked));
      each.accept(got);
      token = nextToken.apply(got);
    } while (token != null);
  }

  /** What the service said: its error details' message, else the exception's own. */
  static @Nullable String serviceMessage(AwsServiceException e) {
    return e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
        ? e.awsErrorDetails().errorMessage()
        : e.getMessage();
  }

  /**
   * The AWS service exception behind {@code t} (the SDK wraps it in completion and stream
   * exceptions), looking at most eight causes deep; else the deepest cause reached.
   */
  static Throwable serviceCause(Throwable t) {
    Throwable e = t;
    for (int depth = 0;
        depth < 8 && !(e instanceof AwsServiceException) && e.getCause() != null;
        depth++) {
      e = e.getCause();
    }
    return e;
  }

  /** The IAM action of a call: {@code sagemaker:DescribeEndpoint}, {@code logs:GetLogEvents}. */
  static String iamAction(AwsServiceException e, String operation) {
    String service = e.awsErrorDetails() == null ? null : e.awsErrorDetails().serviceName();
    String prefix =
        switch (service == null ? "" : service) {
          case "SageMaker" -> "sagemaker:";
          case "ApplicationAutoScaling", "Application Auto Scaling" -> "application-autoscaling:";
          case "CloudWatch" -> "cloudwatch:";
          case "CloudWatchLogs", "CloudWatch Logs" -> "logs:";
          default -> "the action ";
        };
    return prefix + operation;
  }

  /** "3 attempts", from what the SDK counted; "every attempt" when it did not say. */
  private static String attempts(AwsServiceException e) {
    Integer n = e.numAttempts();
    return n == null ? "every attempt" : n + (n == 1 ? " attempt" : " attempts");
  }

  static PlatformException.Reason reason(
      String operation, String subject, int requested, RuntimeException e) {
    if (e instanceof AwsServiceException ase) {
      String code = ase.awsErrorDetails() == null ? "" : ase.awsErrorDetails().errorCode();
      String message = serviceMessage(ase);
      if (ase.isThrottlingException()) {
        return new PlatformException.Reason.Throttled(
            operation
                + " on "
                + subject
                + " ("
                + attempts(ase)
                + " with the SDK's adaptive retry; AWS said "
                + code
                + ": "
                + message
                + ")");
      }
      if (NOT_FOUND.contains(code)
          || ("ValidationException".equals(code)
              && message != null
              && message.toLowerCase(Locale.ROOT).contains("could not find"))) {
        return new PlatformException.Reason.NotFound(
            subject,
            "check the name and the region, or deploy it with `speech-infra deploy --platform aws`"
                + " (AWS said: "
                + message
                + ")");
      }
      if ("ResourceLimitExceeded".equals(code) || "LimitExceededException".equals(code)) {
        Matcher m = message == null ? null : LIMIT.matcher(message);
        if (m != null && m.find()) {
          return new PlatformException.Reason.QuotaExceeded(
              "SageMaker quota '" + m.group(1) + "'", requested, Integer.parseInt(m.group(2)));
        }
        return new PlatformException.Reason.InvalidRequest(
            operation
                + " exceeded an AWS quota ("
                + message
                + "); request a quota increase or lower max_instances");
      }
      if (REJECTED_CREDENTIALS.contains(code)) {
        return new PlatformException.Reason.MissingCredentials(
            "AWS rejected the credentials for "
                + operation
                + " ("
                + code
                + "): refresh them (aws sso login, or new access keys) and run the command again");
      }
      if ("AccessDeniedException".equals(code) || "AccessDenied".equals(code)) {
        return new PlatformException.Reason.InvalidRequest(
            operation
                + " on "
                + subject
                + " was denied ("
                + message
                + "); grant the caller "
                + iamAction(ase, operation)
                + " or use a role that has it");
      }
      if ("ValidationException".equals(code)
          && message != null
          && message.contains("Cannot update in-progress endpoint")) {
        return new PlatformException.Reason.InvalidRequest(
            operation
                + " on "
                + subject
                + " was refused because the endpoint is still Updating (AWS said: "
                + message
                + "); SageMaker takes one change at a time: wait until `speech-infra status`"
                + " shows InService and run the command again (the chain's restore waits for it)");
      }
      if (ase.statusCode() >= 500) {
        return new PlatformException.Reason.Unavailable(
            operation
                + " failed on the AWS side ("
                + ase.statusCode()
                + " "
                + code
                + ": "
                + message
                + "); run the command again");
      }
      return new PlatformException.Reason.InvalidRequest(
          operation
              + " on "
              + subject
              + " was refused ("
              + code
              + ": "
              + message
              + "); correct what AWS names and run the command again");
    }
    if (e instanceof SdkClientException sce
        && sce.getMessage() != null
        && sce.getMessage().contains("credentials")) {
      return new PlatformException.Reason.MissingCredentials(
          "the AWS SDK found no credentials for " + operation + ". " + AwsCredentialSources.fix());
    }
    return new PlatformException.Reason.Unavailable(
        operation
            + " could not reach AWS ("
            + e.getMessage()
            + "); check the network and the region, then run the command again");
  }
}
