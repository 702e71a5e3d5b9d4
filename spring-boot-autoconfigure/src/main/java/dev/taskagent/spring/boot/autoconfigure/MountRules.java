package dev.taskagent.spring.boot.autoconfigure;

import org.springframework.core.env.Environment;

/** The rule of a service mounted on the application's web server, which may be reachable from anywhere. */
final class MountRules {
    private MountRules() {}

    /**
     * Refuses to mount a service without a token on a web server that listens beyond loopback, unless the
     * application turned the rule off.
     *
     * @param server the service's properties
     * @param what what it is, e.g. {@code The task board}
     * @param environment the application's
     * @throws IllegalStateException when the rule is broken, saying how to satisfy it
     */
    static void requireTokenWhenExposed(TaskAgentProperties.Server server, String what, Environment environment) {
        if (server.hasToken() || !server.isRequireToken() || WebServerMount.loopbackOnly(environment)) {
            return;
        }
        String address = environment.getProperty("server.address");
        String prefix = server.prefix();
        throw new IllegalStateException(what + " is served at " + server.getPath() + " on the application's web"
                + " server, which listens on "
                + (address == null || address.isBlank() ? "every interface (server.address is not set)" : address)
                + ", so it needs a token: set " + prefix + ".token (at least 16 characters), or server.address="
                + "127.0.0.1, or " + prefix + ".standalone=true to listen on a loopback port of its own; set "
                + prefix + ".require-token=false only when something else (e.g. Spring Security) guards "
                + server.getPath());
    }
}
