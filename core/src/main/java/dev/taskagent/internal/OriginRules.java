package dev.taskagent.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules of the {@code Host} and {@code Origin} headers that the library's HTTP servers (the MCP server,
 * the task board) apply to every request, and of the allowed hosts and origins their owners name, in one
 * place. The {@code Host} check stops DNS rebinding of a server on loopback; the {@code Origin} check stops
 * other sites' pages from calling it.
 *
 * <p>An allowed host is a {@code Host} header as a browser sends it, a host and an optional port: {@code
 * tasks.example.com}, {@code tasks.example.com:8443}, or {@code tasks.example.com:*} for any port. An allowed
 * origin is an {@code Origin} header as a browser sends it: {@code https://tasks.example.com}, with a port
 * where it is not the scheme's default, or {@code :*} for any port. Both are compared without regard to case,
 * and an origin's default port may be written or left out.
 *
 * <p>An instance holds one server's rules; stateless and thread-safe.
 */
public final class OriginRules {
    /** The host names of this machine that a server on loopback accepts in a {@code Host} header, on any port. */
    public static final List<String> LOOPBACK_HOSTS = List.of("localhost", "127.0.0.1", "[::1]");

    private static final Pattern HOST = Pattern.compile("([A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+\\])(:(\\d{1,5}|\\*))?");

    /** Which browser pages may call a server, besides those of the allowed origins. */
    public enum Callers {
        /** The server's own page only: an {@code Origin} that is {@code http://} and the request's {@code Host}. */
        OWN_PAGE,
        /** Pages of any loopback origin ({@code http} or {@code https}, a loopback host, any port). */
        LOOPBACK_PAGES
    }

    private final boolean checksHost;
    private final boolean loopbackHosts;
    private final List<String> allowedHosts;
    private final List<String> allowedOrigins;
    private final Callers callers;

    private OriginRules(String address, List<String> allowedHosts, List<String> allowedOrigins, Callers callers) {
        this.allowedHosts = allowedHosts.stream()
                .map(host -> host.strip().toLowerCase(Locale.ROOT))
                .toList();
        this.allowedOrigins = allowedOrigins.stream()
                .map(origin -> normalizeAllowed(origin.strip())
                        .orElseThrow(() -> new IllegalArgumentException(
                                allowedOriginProblem(origin, "allowedOrigins").orElseThrow())))
                .toList();
        this.loopbackHosts = address == null || SettingRules.isLoopback(address);
        // Host validation is what stops DNS rebinding of a loopback server; a server on another address is
        // protected by its token instead, and checks Host only when it was told which hosts it serves.
        this.checksHost = loopbackHosts || !allowedHosts.isEmpty();
        this.callers = Objects.requireNonNull(callers, "callers");
    }

    /**
     * The rules of one server.
     *
     * @param address the address it listens on, or null when it is mounted on the application's web server
     *     (whose addresses it cannot know, so it checks Host as on loopback)
     * @param allowedHosts the {@code Host} headers accepted besides loopback ones, each checked with {@link
     *     #allowedHostProblem}
     * @param allowedOrigins the origins accepted besides the server's callers, each checked with {@link
     *     #allowedOriginProblem}; their hosts are accepted {@code Host} headers too
     * @param callers which other pages may call it
     * @return the rules
     * @throws IllegalArgumentException if an origin is not one
     */
    public static OriginRules of(
            String address, List<String> allowedHosts, List<String> allowedOrigins, Callers callers) {
        return new OriginRules(address, List.copyOf(allowedHosts), List.copyOf(allowedOrigins), callers);
    }

    /**
     * Whether a request's {@code Host} header is accepted: always when the server checks no Host (it listens
     * on another address than loopback and was named no hosts); else a loopback host while the server is on
     * loopback, an allowed host, or the host of an allowed origin.
     *
     * @param host the header, or null when the request has none
     * @return true if the request may go on
     */
    public boolean hostAllowed(String host) {
        if (!checksHost) {
            return true;
        }
        if (host == null || host.isBlank()) {
            return false;
        }
        String name = host.strip().toLowerCase(Locale.ROOT);
        String bare = bare(name);
        if (loopbackHosts && LOOPBACK_HOSTS.contains(bare)) {
            return true;
        }
        for (String allowed : allowedHosts) {
            if (allowed.equals(name)) {
                return true;
            }
            if (allowed.endsWith(":*")
                    && allowed.substring(0, allowed.length() - 2).equals(bare)) {
                return true;
            }
        }
        for (String origin : allowedOrigins) {
            String scheme = origin.substring(0, origin.indexOf(':'));
            if (origin.endsWith(":*")) {
                if (origin.substring(scheme.length() + 3, origin.length() - 2).equals(bare)) {
                    return true;
                }
            } else if (normalize(scheme + "://" + name).map(origin::equals).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a request's {@code Origin} header is accepted: always when there is none (not a browser's
     * cross-site request); else an allowed origin, or one of the server's {@linkplain Callers callers}.
     *
     * @param origin the header, or null
     * @param host the request's {@code Host} header, or null
     * @return true if the request may go on
     */
    public boolean originAllowed(String origin, String host) {
        if (origin == null || origin.isBlank()) {
            return true;
        }
        Optional<String> normal = normalize(origin.strip());
        if (normal.isEmpty()) {
            return false;
        }
        String given = normal.get();
        for (String allowed : allowedOrigins) {
            if (allowed.equals(given)
                    || allowed.endsWith(":*")
                            && withoutPort(given).equals(allowed.substring(0, allowed.length() - 2))) {
                return true;
            }
        }
        return switch (callers) {
            case OWN_PAGE -> host != null && normalize("http://" + host.strip()).equals(normal);
            case LOOPBACK_PAGES -> LOOPBACK_HOSTS.contains(bare(given.substring(given.indexOf("://") + 3)));
        };
    }

    /** Whether this server checks {@code Host} headers (for tests and messages). */
    boolean checksHost() {
        return checksHost;
    }

    /**
     * Checks an allowed host as its owner named it: a host and an optional port, or {@code :*} for any.
     *
     * @param host the entry, or null
     * @param name where the front end sets it, e.g. {@code allowedHosts(...)} or {@code --allowed-host}
     * @return the problem, or empty
     */
    public static Optional<String> allowedHostProblem(String host, String name) {
        if (host != null && HOST.matcher(host.strip()).matches()) {
            return Optional.empty();
        }
        return Optional.of(name + " takes hosts as a browser sends them in its Host header: a host and an optional"
                + " port, or :* for any port, e.g. tasks.example.com:8443; was " + quoted(host));
    }

    /**
     * Checks an allowed origin as its owner named it: {@code http} or {@code https}, a host and an optional
     * port, or {@code :*} for any port; no path.
     *
     * @param origin the entry, or null
     * @param name where the front end sets it, e.g. {@code allowedOrigins(...)} or {@code --allowed-origin}
     * @return the problem, or empty
     */
    public static Optional<String> allowedOriginProblem(String origin, String name) {
        if (origin != null && normalizeAllowed(origin.strip()).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(name + " takes origins as a browser sends them in its Origin header: http or https,"
                + " a host and an optional port, or :* for any port, e.g. https://tasks.example.com; was "
                + quoted(origin));
    }

    /**
     * An origin as a browser sends it, in normal form: lower case, the default port left out.
     *
     * @param origin e.g. {@code HTTPS://Tasks.Example.com:443}
     * @return e.g. {@code https://tasks.example.com}, or empty when it is not an http(s) origin
     */
    public static Optional<String> normalize(String origin) {
        URI uri;
        try {
            uri = new URI(origin);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean bare = (uri.getRawPath() == null || uri.getRawPath().isEmpty())
                && uri.getRawQuery() == null
                && uri.getRawFragment() == null
                && uri.getRawUserInfo() == null;
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !bare) {
            return Optional.empty();
        }
        int port = uri.getPort();
        boolean defaultPort = port == -1 || (scheme.equals("http") ? port == 80 : port == 443);
        return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port));
    }

    /** An allowed origin in normal form, where {@code :*} (any port) is kept; empty when it is not one. */
    private static Optional<String> normalizeAllowed(String origin) {
        if (!origin.endsWith(":*")) {
            return normalize(origin);
        }
        String host = origin.substring(0, origin.length() - 2);
        return normalize(host)
                .filter(normal -> normal.equals(withoutPort(normal)))
                .map(normal -> normal + ":*");
    }

    private static String withoutPort(String normalOrigin) {
        int hostStart = normalOrigin.indexOf("://") + 3;
        return normalOrigin.substring(0, hostStart) + bare(normalOrigin.substring(hostStart));
    }

    /** A host header without its port: {@code localhost:8080} is {@code localhost}, {@code [::1]:80} {@code [::1]}. */
    private static String bare(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        return host.replaceFirst(":\\d*$", "");
    }

    private static String quoted(String value) {
        return value == null ? "null" : "'" + value + "'";
    }

    @Override
    public String toString() {
        return "OriginRules[checksHost=" + checksHost + ", allowedHosts=" + allowedHosts + ", allowedOrigins="
                + allowedOrigins + ", callers=" + callers + "]";
    }
}
