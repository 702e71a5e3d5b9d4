package dev.taskagent.dashboard;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Origins as browsers send them ({@code scheme://host[:port]}, the default port left out), compared in one
 * normal form: the board's own origin is {@code http://} and the request's {@code Host}, or one that the
 * owner named with {@link TaskDashboard.Builder#publicOrigins(String...)}.
 *
 * <p>Stateless and thread-safe.
 */
final class Origins {
    private Origins() {}

    /**
     * Checks an origin given to the builder and returns it in normal form.
     *
     * @throws IllegalArgumentException if it is not {@code http} or {@code https}, a host and an optional port
     */
    static String requirePublicOrigin(String origin) {
        return normalize(origin.strip())
                .orElseThrow(() -> new IllegalArgumentException("A public origin is a scheme, a host and an"
                        + " optional port, as a browser sends it in its Origin header, e.g."
                        + " https://board.example.com; was '" + origin + "'"));
    }

    /** The origin in normal form (lower case, no default port), or empty when it is not an http(s) origin. */
    static Optional<String> normalize(String origin) {
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

    /** Whether a request's Origin is the board's own: {@code http://} and its Host, or a public origin. */
    static boolean isOwn(String origin, String host, List<String> publicOrigins) {
        Optional<String> normal = normalize(origin.strip());
        if (normal.isEmpty()) {
            return false;
        }
        if (host != null && normalize("http://" + host.strip()).equals(normal)) {
            return true;
        }
        return publicOrigins.contains(normal.get());
    }

    /** Whether a Host header names the host of a public origin, with its port or without the default one. */
    static boolean namesPublicHost(String host, List<String> publicOrigins) {
        for (String origin : publicOrigins) {
            String scheme = origin.substring(0, origin.indexOf(':'));
            if (normalize(scheme + "://" + host).map(origin::equals).orElse(false)) {
                return true;
            }
        }
        return false;
    }
}
