package dev.taskagent.langchain4j;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.taskagent.llm.ChatModelException;
import java.util.regex.Pattern;

/**
 * Turns what a LangChain4j model throws into a {@link ChatModelException} that names the model and what to
 * do. A refused credential is reported without the provider's text, which may quote part of the key; any
 * other text has key-like tokens masked and is cut at 500 characters.
 */
final class FrameworkErrors {
    private static final Pattern KEY_LIKE = Pattern.compile("\\b(sk|pk|key|api)[-_][A-Za-z0-9_-]{6,}");
    private static final int MAX_DETAIL = 500;

    private FrameworkErrors() {}

    static ChatModelException translate(String model, Throwable failure) {
        if (failure instanceof ChatModelException already) {
            return already;
        }
        String what = "The LangChain4j model " + model;
        if (failure instanceof AuthenticationException) {
            return new ChatModelException(
                    what + " was refused its credentials: check the API key it was built" + " with.");
        }
        if (failure instanceof RateLimitException) {
            return new ChatModelException(
                    what + " hit the provider's rate limit (" + detail(failure) + "). Wait and retry, or lower"
                            + " the request rate.",
                    failure);
        }
        if (failure instanceof TimeoutException) {
            return new ChatModelException(
                    what + " timed out (" + detail(failure) + "). Raise the model's timeout or retry.", failure);
        }
        if (failure instanceof ModelNotFoundException) {
            return new ChatModelException(
                    what + " names a model the provider does not serve (" + detail(failure) + ").", failure);
        }
        if (failure instanceof ContentFilteredException) {
            return new ChatModelException(
                    what + " was stopped by the provider's content filter (" + detail(failure) + ").", failure);
        }
        if (failure instanceof InvalidRequestException) {
            return new ChatModelException(what + " refused the request as invalid (" + detail(failure) + ").", failure);
        }
        if (failure instanceof HttpException http) {
            return new ChatModelException(
                    what + " failed with HTTP " + http.statusCode() + " (" + detail(failure) + ").", failure);
        }
        return new ChatModelException(
                what + " failed: " + failure.getClass().getSimpleName() + " (" + detail(failure) + ").", failure);
    }

    private static String detail(Throwable failure) {
        String message = failure.getMessage() == null ? "no message" : failure.getMessage();
        message = KEY_LIKE.matcher(message).replaceAll("$1-***");
        return message.length() <= MAX_DETAIL ? message : message.substring(0, MAX_DETAIL) + "…";
    }
}
