package dev.taskagent.llm;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a {@link ChatModel} through {@link ServiceLoader}, like SLF4J finds its provider.
 *
 * <p>An explicit choice wins: the system property {@value #SELECTOR_PROPERTY}, else the environment
 * variable {@value #SELECTOR_ENV}, naming a provider by {@link ChatModelProvider#name()} or class name.
 * Without a choice, exactly one provider must be present. Each failure mode has its own message that
 * says what was found and what to do.
 *
 * <p>Thread-safe (stateless).
 */
public final class ChatModels {
    /** System property that names the provider to use. */
    public static final String SELECTOR_PROPERTY = "taskagent.chat-model";

    /** Environment variable that names the provider to use when the system property is not set. */
    public static final String SELECTOR_ENV = "TASKAGENT_CHAT_MODEL";

    /** How many unloadable providers are skipped before the search stops: a guard against a loop. */
    private static final int MAX_BROKEN_PROVIDERS = 32;

    private static final Logger LOG = LoggerFactory.getLogger(ChatModels.class);

    private ChatModels() {}

    /**
     * Finds the provider and creates its model.
     *
     * @return the model
     * @throws ChatModelException if no provider, several without a choice, or an unknown choice is found,
     *     or if the provider cannot create its model
     */
    public static ChatModel discover() {
        return findProvider().create();
    }

    /**
     * Finds the provider to use, looking with the context class loader (or this class's loader).
     *
     * @return the provider
     * @throws ChatModelException as for {@link #discover()}
     */
    public static ChatModelProvider findProvider() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ChatModels.class.getClassLoader();
        }
        return findProvider(loader);
    }

    /**
     * Finds the provider to use among those a class loader sees.
     *
     * @param loader where to look
     * @return the provider
     * @throws ChatModelException as for {@link #discover()}
     */
    public static ChatModelProvider findProvider(ClassLoader loader) {
        List<ChatModelProvider> found = new ArrayList<>();
        List<String> broken = new ArrayList<>();
        Iterator<ChatModelProvider> providers =
                ServiceLoader.load(ChatModelProvider.class, loader).iterator();
        // One broken provider jar (a missing class, a failing constructor) must not hide the others.
        for (int failures = 0; failures <= MAX_BROKEN_PROVIDERS; ) {
            try {
                if (!providers.hasNext()) {
                    break;
                }
                found.add(providers.next());
            } catch (ServiceConfigurationError e) {
                failures++;
                broken.add(e.getMessage());
                LOG.warn("Skipped a ChatModelProvider that could not be loaded: {}", e.getMessage());
                LOG.debug("The provider's failure", e);
            }
        }
        try {
            return select(found, explicitChoice());
        } catch (ChatModelException e) {
            if (broken.isEmpty()) {
                throw e;
            }
            throw new ChatModelException(
                    e.getMessage() + " Providers that could not be loaded: " + String.join("; ", broken) + ".", e);
        }
    }

    private static String explicitChoice() {
        String property = System.getProperty(SELECTOR_PROPERTY);
        if (property != null && !property.isBlank()) {
            return property.strip();
        }
        String env = System.getenv(SELECTOR_ENV);
        return env == null || env.isBlank() ? null : env.strip();
    }

    static ChatModelProvider select(List<ChatModelProvider> found, String choice) {
        if (choice != null) {
            for (ChatModelProvider provider : found) {
                if (provider.name().equalsIgnoreCase(choice)
                        || provider.getClass().getName().equals(choice)) {
                    return provider;
                }
            }
            throw new ChatModelException("No ChatModelProvider named '" + choice + "' (chosen by -D"
                    + SELECTOR_PROPERTY + " or " + SELECTOR_ENV + "). Found: " + describe(found)
                    + ". Choose one of those names, or add the module that provides '"
                    + choice.toLowerCase(Locale.ROOT) + "' to the class path.");
        }
        if (found.isEmpty()) {
            throw new ChatModelException("No ChatModelProvider found. Tried ServiceLoader on "
                    + ChatModelProvider.class.getName()
                    + ". Add taskagent-llm-openai (or another provider) to the class path,"
                    + " or construct a ChatModel directly.");
        }
        if (found.size() > 1) {
            throw new ChatModelException("Several ChatModelProviders found: " + describe(found) + ". Choose one with -D"
                    + SELECTOR_PROPERTY + "=<name> or " + SELECTOR_ENV + "=<name>.");
        }
        return found.get(0);
    }

    private static String describe(List<ChatModelProvider> found) {
        if (found.isEmpty()) {
            return "none";
        }
        return found.stream()
                .map(provider -> provider.name() + " (" + provider.getClass().getName() + ")")
                .collect(Collectors.joining(", "));
    }
}
