"""citebot's own words as a person reads them: in their language, with its plural forms and its
way of writing numbers, and the platform's locale tag finding the right catalogue."""

from __future__ import annotations

import pytest

from bot.i18n.wording import LANGUAGES, Wording, catalogue_language, language_setting
from bot.upstream.errors import RateLimited, TokenLimit


def test_the_ten_promised_languages_ship() -> None:
    assert set(LANGUAGES) == {
        "en",
        "nl",
        "pt_BR",
        "es",
        "it",
        "fr",
        "de",
        "pl",
        "zh_Hans",
        "zh_Hant",
    }


def test_a_wait_reads_naturally_in_each_language() -> None:
    assert Wording().rate_limited(1) == (
        "The answer service is busy right now. Please try again in 1 second."
    )
    assert Wording().rate_limited(300).endswith("in 5 minutes.")
    assert Wording("nl").rate_limited(300).endswith("over 5 minuten opnieuw.")
    assert (
        Wording("pt_BR")
        .user_rate_limited(30)
        .startswith("Você fez muitas perguntas em pouco tempo. Aguarde 30 segundos")
    )
    assert (
        Wording("de").explain(RateLimited("busy", retry_after=1)).endswith("in 1 Sekunde erneut.")
    )
    assert Wording("zh_Hans").rate_limited(30) == "回答服务目前繁忙。请在 30 秒后再试。"


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (1, "za 1 sekundę."),
        (3, "za 3 sekundy."),
        (12, "za 12 sekund."),
        (22, "za 22 sekundy."),
        (25, "za 25 sekund."),
        (300, "za 5 minut."),
        (120, "za 2 minuty."),
    ],
)
def test_polish_uses_its_three_plural_forms(seconds: int, said: str) -> None:
    assert Wording("pl").rate_limited(seconds).endswith(said)


def test_chinese_has_one_form_for_every_count() -> None:
    wording = Wording("zh_Hans")
    assert wording.question_too_long(1) == "这个问题太长了：请控制在 1 个字符以内。"
    assert wording.question_too_long(500) == "这个问题太长了：请控制在 500 个字符以内。"
    assert Wording("zh_Hant").question_too_long(500) == "這個問題太長了：請控制在 500 個字元以內。"


def test_the_length_limit_is_said_as_the_service_applies_it() -> None:
    assert Wording().question_too_long(1) == (
        "That question is too long: please use at most 1 character."
    )
    assert Wording().question_too_long(2000) == (
        "That question is too long: please use at most 2,000 characters."
    )
    assert Wording("nl").question_too_long(1) == "Deze vraag is te lang: gebruik maximaal 1 teken."


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", "12,000"),
        ("de", "12.000"),
        ("nl", "12.000"),
        ("pt_BR", "12.000"),
        ("es", "12.000"),
        ("it", "12.000"),
        ("fr", "12\u202f000"),
        ("pl", "12\xa0000"),
        ("zh_Hans", "12,000"),
        ("zh_Hant", "12,000"),
    ],
)
def test_numbers_in_sentences_are_written_the_language_s_way(language: str, written: str) -> None:
    wording = Wording(language)
    assert wording.number(12000) == written
    assert f" {written} " in wording.question_too_long(12000)
    assert written in wording.queued(12000)


def test_labels_follow_the_language() -> None:
    assert Wording().labels.related == "Related questions"
    assert Wording("es").labels.related == "Preguntas relacionadas"
    assert Wording("fr").labels.supports == "Étaye"
    assert Wording("zh_Hans").labels.also_consulted == "其他参考资料"
    assert Wording("zh_Hant").labels.also_consulted == "其他參考資料"
    assert Wording("fr").labels.bad_answer == "Réponse peu utile"  # not a quiz's "wrong answer"


def test_a_label_before_a_quote_is_punctuated_as_the_language_does() -> None:
    assert Wording().labels.supports_lead == "Supports:"
    assert Wording("fr").labels.supports_lead == "Étaye\u00a0:"  # a space before the colon
    assert Wording("zh_Hans").labels.supports_lead == "佐证："  # the full-width colon
    assert Wording("zh_Hant").labels.supports_lead == "佐證："


@pytest.mark.parametrize(
    ("language", "quoted"),
    [
        ("en", "“grace”"),
        ("de", "„grace“"),
        ("fr", "«\u00a0grace\u00a0»"),
        ("pl", "„grace”"),
        ("es", "«grace»"),
        ("it", "«grace»"),
        ("zh_Hant", "「grace」"),
    ],
)
def test_the_answers_words_on_a_card_are_quoted_as_the_language_quotes(
    language: str, quoted: str
) -> None:
    assert Wording(language).labels.quoted.format(quote="grace") == quoted


def test_a_wording_takes_any_tag_and_keeps_the_catalogue_it_found() -> None:
    assert Wording("pt-BR") == Wording("pt") == Wording("pt_BR.UTF-8")
    assert Wording("pt-BR").language == "pt_BR"
    assert Wording("zh-CN").language == "zh_Hans"
    assert Wording("zh-TW").language == "zh_Hant"
    assert Wording().language == Wording("ja-JP").language == "en"
    assert Wording("ja-JP").thinking() == "is thinking…"


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        # Discord's locales
        ("pt-BR", "pt_BR"),
        ("zh-CN", "zh_Hans"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("nl", "nl"),
        ("pl", "pl"),
        ("it", "it"),
        ("fr", "fr"),
        ("de", "de"),
        # Slack's
        ("es-LA", "es"),
        ("fr-FR", "fr"),
        ("de-DE", "de"),
        ("it-IT", "it"),
        # POSIX and gettext's lists: the first that ships wins
        ("pt_BR.UTF-8", "pt_BR"),
        ("zh_CN.UTF-8", "zh_Hans"),
        ("de_DE:en", "de"),
        ("xx:nl_BE", "nl"),
        ("de_DE.UTF-8@euro", "de"),
        ("EN", "en"),
        # European Portuguese reads the Brazilian catalogue; Singapore writes Simplified Chinese
        ("pt-PT", "pt_BR"),
        ("pt", "pt_BR"),
        ("zh-SG", "zh_Hans"),
        ("zh-Hans", "zh_Hans"),
        ("zh", "zh_Hans"),  # bare zh is Simplified by CLDR's likely subtags, not by luck
        ("zh_Hans_HK", "zh_Hans"),
        # Traditional Chinese: Discord's and Slack's zh-TW, Hong Kong, Macau, the script itself
        ("zh-TW", "zh_Hant"),
        ("zh-HK", "zh_Hant"),
        ("zh-MO", "zh_Hant"),
        ("zh-Hant", "zh_Hant"),
        ("zh_Hant_TW", "zh_Hant"),
        ("zh-Hant-HK", "zh_Hant"),
        ("zh_TW.UTF-8", "zh_Hant"),
        ("zh-TW:zh-HK", "zh_Hant"),
        ("zh_TW:en", "zh_Hant"),
        ("xx:zh_HK", "zh_Hant"),
    ],
)
def test_a_locale_tag_finds_its_catalogue(tag: str, language: str) -> None:
    assert catalogue_language(tag) == language


@pytest.mark.parametrize("tag", ["ja-JP", "ko-KR", "yue-HK", "klingon", "", None])
def test_other_languages_get_the_caller_s_default(tag: str | None) -> None:
    assert catalogue_language(tag) is None


def test_a_language_without_a_catalogue_takes_the_list_s_next() -> None:
    assert catalogue_language("ja_JP:en") == "en"


def _names_a(place: str, wording: Wording) -> str:
    """The sentence that names a channel (a refusal) or a thread (a wait) for this reader."""
    return wording.not_allowed_here() if place == "channel" else wording.after_thread_turn(3)


@pytest.mark.parametrize(
    ("language", "place", "general", "discord", "slack"),
    [
        ("fr", "channel", "dans un canal où", "dans un salon où", "dans un canal où"),
        ("de", "channel", "in einem Kanal,", "in einem Kanal,", "in einem Channel,"),
        ("es", "channel", "en un canal donde", "en un canal donde", "en un canal donde"),
        ("zh_Hant", "channel", "頻道", "頻道", "頻道"),
        ("zh_Hans", "thread", "此对话中", "此子区中", "此消息列中"),
        ("zh_Hant", "thread", "這個對話中", "這個討論串中", "這個對話串中"),
        ("pt_BR", "thread", "neste tópico", "neste tópico", "nesta conversa"),
        ("it", "thread", "in questo thread", "in questo thread", "in questo thread"),
    ],
)
def test_a_thread_or_channel_is_named_as_the_reader_s_platform_names_it(
    language: str, place: str, general: str, discord: str, slack: str
) -> None:
    assert general in _names_a(place, Wording(language))
    assert discord in _names_a(place, Wording(language, "discord"))
    assert slack in _names_a(place, Wording(language, "slack"))
    assert _names_a(place, Wording(language, "terminal")) == _names_a(place, Wording(language))
    assert " 3 " in Wording(language, "slack").after_thread_turn(3)


def test_english_is_the_same_on_every_platform() -> None:
    assert Wording(None, "discord").explain(TokenLimit("long")) == Wording().explain(
        TokenLimit("long")
    )
    assert Wording(None, "slack").not_allowed_here() == (
        "citebot is not enabled here. Please ask in a channel where it is allowed."
    )


def test_a_platform_without_its_own_entry_reads_the_general_sentence() -> None:
    assert Wording("es", "discord").not_allowed_here() == Wording("es").not_allowed_here()
    assert Wording("es", "slack").not_allowed_here() == Wording("es", "terminal").not_allowed_here()


@pytest.mark.parametrize(
    ("value", "language"),
    [
        ("nl", "nl"),
        ("pt-BR", "pt_BR"),
        ("pt_BR.UTF-8", "pt_BR"),
        ("EN", "en"),
        ("xx:de_DE:en", "de"),
        ("zh-CN", "zh_Hans"),
        ("zh-TW", "zh_Hant"),
        ("zh_HK.UTF-8", "zh_Hant"),
    ],
)
def test_a_language_setting_is_read_as_the_catalogue_it_names(value: str, language: str) -> None:
    assert language_setting(value) == language


def test_an_apps_own_pages_speak_the_readers_language() -> None:
    """The settings page, the greeting and the rotating status, as a German admin on Slack
    reads them: Slack's own word for a channel, numbers as German writes them."""
    german = Wording("de", "slack")
    assert german.setting_label("daily_questions") == "Fragen pro Tag"
    assert german.setting_label("no_such_key") == "no_such_key"
    assert german.count_hint(1_000_000_000).startswith("Eine ganze Zahl von 1 bis 1.000.000.000")
    assert german.settings_page.on == "An"
    for language in LANGUAGES:
        words = Wording(language)
        assert len(words.loading_messages()) == 4
        assert 1 <= len(words.starter_prompts()) <= 4  # Slack shows at most four
        assert len(words.settings_page.short_title) <= 24  # a Slack modal's title
    assert Wording("fr").loading_messages()[0] == "Recherche des sources…"


def test_no_part_of_the_wording_hides_another_s_sentence() -> None:
    """Wording is assembled from mixins: a method defined twice would silently say the first
    one's sentence where the second's was meant (Telegram's /help once hid Slack's page text)."""
    parts = [Wording, *Wording.__bases__]
    names = [
        name
        for part in parts
        for name, value in vars(part).items()
        if callable(value) and not name.startswith("__")
    ]
    assert sorted({name for name in names if names.count(name) > 1}) == []
