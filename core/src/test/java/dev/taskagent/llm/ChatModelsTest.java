package dev.taskagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatModelsTest {
    private static final String ALPHA = "alpha (dev.taskagent.llm.ChatModelsTest$Alpha)";
    private static final String BETA = "beta (dev.taskagent.llm.ChatModelsTest$Beta)";

    private final ChatModelProvider alpha = new Alpha();
    private final ChatModelProvider beta = new Beta();

    @Test
    void noProviderIsAnErrorThatSaysWhatToAdd() {
        assertThatThrownBy(() -> ChatModels.select(List.of(), null))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("No ChatModelProvider found. Tried ServiceLoader on dev.taskagent.llm.ChatModelProvider."
                        + " Add taskagent-llm-openai (or another provider) to the class path, or construct a"
                        + " ChatModel directly.");
    }

    @Test
    void singleProviderIsUsedWithoutAChoice() {
        assertThat(ChatModels.select(List.of(alpha), null)).isSameAs(alpha);
    }

    @Test
    void severalProvidersWithoutAChoiceIsAnErrorListingThem() {
        assertThatThrownBy(() -> ChatModels.select(List.of(alpha, beta), null))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("Several ChatModelProviders found: " + ALPHA + ", " + BETA
                        + ". Choose one with -Dtaskagent.chat-model=<name> or TASKAGENT_CHAT_MODEL=<name>.");
    }

    @Test
    void choiceByNameIgnoresCase() {
        assertThat(ChatModels.select(List.of(alpha, beta), "beta")).isSameAs(beta);
        assertThat(ChatModels.select(List.of(alpha, beta), "ALPHA")).isSameAs(alpha);
    }

    @Test
    void choiceByClassName() {
        assertThat(ChatModels.select(List.of(alpha, beta), Beta.class.getName()))
                .isSameAs(beta);
    }

    @Test
    void unknownChoiceIsAnErrorListingWhatWasFound() {
        assertThatThrownBy(() -> ChatModels.select(List.of(alpha, beta), "Gamma"))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("No ChatModelProvider named 'Gamma' (chosen by -Dtaskagent.chat-model or"
                        + " TASKAGENT_CHAT_MODEL). Found: " + ALPHA + ", " + BETA
                        + ". Choose one of those names, or add the module that provides 'gamma' to the class path.");
    }

    @Test
    void choiceIsHonouredEvenWhenOneProviderIsPresent() {
        assertThatThrownBy(() -> ChatModels.select(List.of(alpha), "beta"))
                .isInstanceOf(ChatModelException.class)
                .hasMessageStartingWith("No ChatModelProvider named 'beta'")
                .hasMessageContaining("Found: " + ALPHA + ".");
        assertThatThrownBy(() -> ChatModels.select(List.of(), "openai")).hasMessageContaining("Found: none.");
    }

    @Test
    void discoveryHonoursTheSystemProperty() {
        String previous = System.getProperty(ChatModels.SELECTOR_PROPERTY);
        System.setProperty(ChatModels.SELECTOR_PROPERTY, " nowhere ");
        try {
            // core's own class path holds no provider
            assertThatThrownBy(() -> ChatModels.findProvider(ChatModelsTest.class.getClassLoader()))
                    .isInstanceOf(ChatModelException.class)
                    .hasMessageStartingWith("No ChatModelProvider named 'nowhere'")
                    .hasMessageContaining("Found: none.");
        } finally {
            if (previous == null) {
                System.clearProperty(ChatModels.SELECTOR_PROPERTY);
            } else {
                System.setProperty(ChatModels.SELECTOR_PROPERTY, previous);
            }
        }
    }

    @Test
    void aBrokenProviderIsSkippedAndTheOthersAreFound(@TempDir Path classes) throws IOException {
        Path services = classes.resolve("META-INF/services/" + ChatModelProvider.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(
                services,
                "dev.taskagent.llm.NoSuchProvider\n" + Exploding.class.getName() + "\n" + Alpha.class.getName() + "\n");
        String previous = System.getProperty(ChatModels.SELECTOR_PROPERTY);
        System.clearProperty(ChatModels.SELECTOR_PROPERTY);
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, ChatModelsTest.class.getClassLoader())) {
            ChatModelProvider found = ChatModels.findProvider(loader);

            assertThat(found).isInstanceOf(Alpha.class);
        } finally {
            if (previous != null) {
                System.setProperty(ChatModels.SELECTOR_PROPERTY, previous);
            }
        }
    }

    @Test
    void whenOnlyBrokenProvidersExistTheErrorNamesThem(@TempDir Path classes) throws IOException {
        Path services = classes.resolve("META-INF/services/" + ChatModelProvider.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, "dev.taskagent.llm.NoSuchProvider\n");
        String previous = System.getProperty(ChatModels.SELECTOR_PROPERTY);
        System.clearProperty(ChatModels.SELECTOR_PROPERTY);
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, ChatModelsTest.class.getClassLoader())) {
            assertThatThrownBy(() -> ChatModels.findProvider(loader))
                    .isInstanceOf(ChatModelException.class)
                    .hasMessageStartingWith("No ChatModelProvider found.")
                    .hasMessageContaining("Providers that could not be loaded: ")
                    .hasMessageContaining("dev.taskagent.llm.NoSuchProvider");
        } finally {
            if (previous != null) {
                System.setProperty(ChatModels.SELECTOR_PROPERTY, previous);
            }
        }
    }

    /** A provider whose constructor fails, as one whose jar misses a dependency does. */
    public static final class Exploding implements ChatModelProvider {
        public Exploding() {
            throw new IllegalStateException("missing dependency");
        }

        @Override
        public String name() {
            return "exploding";
        }

        @Override
        public ChatModel create() {
            throw new UnsupportedOperationException("never created");
        }
    }

    public static final class Alpha implements ChatModelProvider {
        @Override
        public String name() {
            return "alpha";
        }

        @Override
        public ChatModel create() {
            throw new UnsupportedOperationException("not needed");
        }
    }

    public static final class Beta implements ChatModelProvider {
        @Override
        public String name() {
            return "beta";
        }

        @Override
        public ChatModel create() {
            throw new UnsupportedOperationException("not needed");
        }
    }
}
