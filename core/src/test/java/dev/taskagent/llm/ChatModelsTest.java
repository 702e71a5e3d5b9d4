package dev.taskagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

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

    static final class Alpha implements ChatModelProvider {
        @Override
        public String name() {
            return "alpha";
        }

        @Override
        public ChatModel create() {
            throw new UnsupportedOperationException("not needed");
        }
    }

    static final class Beta implements ChatModelProvider {
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
