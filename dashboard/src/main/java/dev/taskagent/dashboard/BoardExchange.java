package dev.taskagent.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One request to the board and its response, as {@link BoardHttp} handles it: what the JDK's HTTP server
 * ({@link JdkExchange}) and a servlet container ({@link TaskDashboardServlet}) both give, so that one handler
 * answers through either front door.
 *
 * <p>Used by one thread at a time: the one answering the request.
 */
interface BoardExchange {

    /** @return the request's method, e.g. {@code GET} */
    String method();

    /**
     * @return the request's path below the board's root, undecoded, starting with {@code /} ({@code /} for the
     *     page itself)
     */
    String rawPath();

    /** @return the request's query string, undecoded, or null */
    String rawQuery();

    /**
     * @param name a request header's name (any case)
     * @return its first value, or null
     */
    String requestHeader(String name);

    /**
     * Sets a response header; call before {@link #sendHeaders(int, long)}.
     *
     * @param name the header
     * @param value its value
     */
    void setHeader(String name, String value);

    /**
     * @return the request's body
     * @throws IOException if it cannot be read
     */
    InputStream requestBody() throws IOException;

    /**
     * Sends the status and the headers set so far.
     *
     * @param status the HTTP status
     * @param length the body's length: -1 for no body, 0 for a body of unknown length (streamed)
     * @return where the body goes; written and flushed by the caller, closed by {@link #close()}
     * @throws IOException if the client went away
     */
    OutputStream sendHeaders(int status, long length) throws IOException;

    /** Ends the exchange: closes the body, when there is one. Never throws. */
    void close();

    /**
     * Whether the page is served below a path of a larger application, so that it names its files relative to
     * itself rather than from the server's root.
     *
     * @return true through a servlet container
     */
    boolean mounted();
}
