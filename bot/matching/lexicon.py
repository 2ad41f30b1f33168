"""The words a question's meaning turns on, in each language citebot speaks: what it asks
(when, why, where...), whether it is negated, and the function words that carry neither.

Two questions that share every other word may still ask different things: "when is Mass on
Sunday" and "why is Mass on Sunday". So the interrogatives are not words to weigh but a kind of
question to agree on (:data:`Kind`), and a negation must agree too. Detection leans towards
finding a kind or a negation where there is doubt: a kind found where none was meant can only
keep a question from an own answer (it then goes to the sources), while one missed could give
it a wrong own answer. The function-word lists are short on purpose: general stop lists drop
words a community's questions turn on ("open" and "close", "first", "date", Italian "ora").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = ["LEXICONS", "Kind", "Lexicon"]

Kind = Literal["time", "duration", "reason", "place", "person", "manner", "amount", "thing"]


@dataclass(frozen=True, slots=True)
class Lexicon:
    """One language's words, lower-case as a person types them (accents as they may be
    typed or left out)."""

    kinds: Mapping[str, Kind]
    """A word or phrase -> the kind of question it asks; phrases are found before words."""
    negations: frozenset[str]
    function_words: frozenset[str]
    stemmer: str | None
    """Snowball's name for the language's stemmer; None: the language is written without
    spaces and read in characters (Chinese)."""
    prefix: int = 5
    """The shortest stem that is one word with a longer stem it begins (a stemmer that cuts
    one inflection of a word shorter than another: Polish ``msza``, ``msz``)."""
    compounds: bool = False
    """Whether words are made of words (German ``Sonntagsmesse``, Dutch ``zondagsmis``): a
    word is then one with two words of the other question that make it up."""


def _kinds(**words: str) -> dict[str, Kind]:
    """``time="when|what time"`` as a mapping of each word or phrase to its kind."""
    table: dict[str, Kind] = {}
    for kind, listed in words.items():
        for phrase in listed.split("|"):
            table[phrase.strip()] = kind  # type: ignore[assignment]
    return table


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ENGLISH = Lexicon(
    kinds=_kinds(
        time="when|what time|at what time|what day|which day|what days|which days|what hour"
        "|how late|how early|time|times|hours|schedule|timetable|o'clock",
        duration="how long",
        reason="why|how come|what for|for what reason",
        place="where|whereabouts|what address",
        person="who|whom|whose",
        manner="how",
        amount="how much|how many|cost|costs|price|fee",
        thing="what|which",
    ),
    negations=_words("not no never cannot nobody nothing none"),
    function_words=_words(
        "a an the is are was were be been being am do does did done have has had i me my we us"
        " our you your he him his she her it its they them their this that these those there"
        " here of on in at to for from by with about as into and or but if so then than can"
        " could will would shall should may might must please tell know anyone someone any some"
        " let s get"
    ),
    stemmer="english",
)

_GERMAN = Lexicon(
    kinds=_kinds(
        time="wann|um wie viel uhr|um wieviel uhr|wie viel uhr|wieviel uhr|welche uhrzeit"
        "|zu welcher uhrzeit|an welchem tag|an welchen tagen|uhrzeit|uhrzeiten|zeit|zeiten"
        "|öffnungszeiten|oeffnungszeiten",
        duration="wie lange|wie lang",
        reason="warum|wieso|weshalb|weswegen|wozu|aus welchem grund",
        place="wo|wohin|woher|an welchem ort",
        person="wer|wen|wem|wessen",
        manner="wie",
        amount="wie viel|wieviel|wie viele|wieviele|kosten|kostet|preis",
        thing="was|welche|welcher|welches|welchen|welchem",
    ),
    negations=_words("nicht kein keine keinen keinem keiner keines nie niemals nichts niemand"),
    function_words=_words(
        "der die das den dem des ein eine einen einem einer eines ist sind war waren bin bist"
        " seid sein hat haben hast habt wird werden wurde kann können könnte darf dürfen muss"
        " müssen soll sollen ich du er sie es wir ihr mich mir dich dir uns euch ihn ihm ihnen"
        " mein meine unser unsere dein euer hier da dort gibt im in am an auf um zu zum zur von"
        " vom mit für bei beim aus nach und oder aber denn bitte man noch schon auch mal dies"
        " diese dieser dieses diesem diesen jene jener"
    ),
    stemmer="german",
    compounds=True,
)

_SPANISH = Lexicon(
    kinds=_kinds(
        time="cuándo|cuando|a qué hora|a que hora|qué hora|que hora|qué horario|horario"
        "|horarios|hora|horas|qué día|que dia|qué días|que dias|en qué días|en que dias",
        duration="cuánto dura|cuanto dura|cuánto tiempo|cuanto tiempo",
        reason="por qué|por que|porqué|porque|para qué|para que|por qué motivo",
        place="dónde|donde|adónde|adonde|en qué lugar|en que lugar",
        person="quién|quien|quiénes|quienes",
        manner="cómo|como",
        amount="cuánto|cuanto|cuánta|cuanta|cuántos|cuantos|cuántas|cuantas|cuesta|cuestan|precio",
        thing="qué|cuál|cual|cuáles|cuales",
    ),
    negations=_words("no nunca jamás jamas ni nada nadie ningún ninguna ninguno"),
    function_words=_words(
        "el la los las un una unos unas de del al a en con por para es son está están esta"
        " estan hay ser estar se me te le les lo nos mi mis tu tus su sus nuestro nuestra y o"
        " pero que este esto ese esa aquí aqui allí alli puedo puede pueden podemos favor"
        " saber sabe usted ustedes yo estos estas"
    ),
    stemmer="spanish",
)

_FRENCH = Lexicon(
    kinds=_kinds(
        time="quand|à quelle heure|a quelle heure|quelle heure|quel jour|quels jours|heure"
        "|heures|horaire|horaires",
        duration="combien de temps|combien dure",
        reason="pourquoi|pour quelle raison",
        place="où|à quel endroit",
        person="qui",
        manner="comment",
        amount="combien|prix|coûte|coute|coûtent",
        thing="que|quoi|quel|quelle|quels|quelles|qu",
    ),
    negations=_words("ne n pas jamais aucun aucune rien personne sans"),
    function_words=_words(
        "le la les l un une des du de d à au aux en dans sur pour par avec et ou mais est"
        " sont c ce cet cette ces il elle ils elles on je j tu nous vous me m te t se s y a ai"
        " as ont avez avons sais savez peut peux pouvez puis plaît plait est-ce"
    ),
    stemmer="french",
)

_ITALIAN = Lexicon(
    kinds=_kinds(
        time="quando|a che ora|che ora|a che ore|quale orario|orario|orari|ore|che giorno"
        "|quale giorno|quali giorni|in che giorni",
        duration="quanto dura|quanto tempo",
        reason="perché|perche|per quale motivo|come mai",
        place="dove",
        person="chi",
        manner="come",
        amount="quanto|quanta|quanti|quante|costa|costano|prezzo",
        thing="cosa|che cosa|che|quale|quali",
    ),
    negations=_words("non mai nessun nessuno nessuna niente nulla senza"),
    function_words=_words(
        "il lo la i gli le l un uno una di del dello della dei degli delle a al allo alla ai"
        " agli alle da dal in nel nella nei nelle su sul sulla con per tra fra e ed o ma è e'"
        " sono c ci si mi ti vi ne mio tuo suo nostro posso può puo possiamo favore ora"
    ),
    stemmer="italian",
)

_DUTCH = Lexicon(
    kinds=_kinds(
        time="wanneer|hoe laat|om hoe laat|welke tijd|hoe laat is|welke dag|welke dagen|tijd"
        "|tijden|openingstijden",
        duration="hoe lang",
        reason="waarom|waarvoor|om welke reden",
        place="waar|waarheen|waarvandaan",
        person="wie",
        manner="hoe",
        amount="hoeveel|kost|kosten|prijs",
        thing="wat|welk|welke",
    ),
    negations=_words("niet geen nooit niets niemand zonder"),
    function_words=_words(
        "de het een t is zijn was waren ben bent wordt worden heb hebt heeft hebben kan kun"
        " kunt kunnen mag mogen moet moeten zal zullen ik jij je u hij zij ze wij we jullie"
        " mij me mijn ons onze jouw uw er hier daar van in op aan om te voor met bij naar uit"
        " over en of maar dit dat deze die graag alstublieft men gaan"
    ),
    stemmer="dutch",
    compounds=True,
)

_POLISH = Lexicon(
    kinds=_kinds(
        time="kiedy|o której|o ktorej|o której godzinie|o ktorej godzinie|która godzina"
        "|ktora godzina|w jakie dni|w który dzień|w ktory dzien|jakie godziny|w jakich godzinach"
        "|godzina|godziny|godzinie|godzin|godzinach|godzinę|godzine|o jakiej porze",
        duration="jak długo|jak dlugo|ile trwa",
        reason="dlaczego|czemu|po co|z jakiego powodu",
        place="gdzie|dokąd|dokad|skąd|skad",
        person="kto|kogo|komu|kim",
        manner="jak|w jaki sposób|w jaki sposob",
        amount="ile|kosztuje|kosztują|cena",
        thing="co|czego|czym|jaki|jaka|jakie|jakich|jakim|który|ktory|która|ktora|które|ktore"
        "|których|ktorych",
    ),
    negations=_words("nie nigdy żaden zaden żadna zadna nic nikt bez"),
    function_words=_words(
        "w we na z ze do od o po przy za dla i a lub albo ale czy jest są sa był była było"
        " być byc się sie to ten ta te tego tej mój moj moja nasz nasza ja ty on ona my wy"
        " oni mi mnie nam proszę prosze można mozna mogę moge może moze tej tym tych"
    ),
    stemmer="polish",
    prefix=3,
)

_PORTUGUESE = Lexicon(
    kinds=_kinds(
        time="quando|que horas|a que horas|qual horário|qual horario|que dia|quais dias"
        "|horário|horario|horários|horarios|hora|horas",
        duration="quanto tempo|quanto dura",
        reason="por que|porque|por quê|porquê|pra que|para que",
        place="onde|aonde",
        person="quem",
        manner="como",
        amount="quanto|quanta|quantos|quantas|custa|custam|preço|preco",
        thing="o que|que|qual|quais",
    ),
    negations=_words("não nao nunca nenhum nenhuma nem nada ninguém ninguem sem"),
    function_words=_words(
        "o a os as um uma uns umas de do da dos das em no na nos nas ao à aos às por pelo"
        " pela para pra com e ou mas é e são sao está esta estão estao há ha tem ser estar se"
        " me te lhe meu minha nosso nossa seu sua eu você voce vocês voces ele ela isso isto"
        " este esse essa aqui ali posso pode podem favor deste desta neste nesta desse dessa"
    ),
    stemmer="portuguese",
)

_CHINESE = Lexicon(
    kinds=_kinds(
        time="什么时候|什麼時候|甚麼時候|何时|何時|几点|幾點|什么时间|什麼時間|哪天|哪一天|星期几"
        "|星期幾|几时|幾時|时间|時間",
        duration="多久|多长时间|多長時間",
        reason="为什么|為什麼|为何|為何|干嘛|幹嘛",
        place="哪里|哪裡|哪儿|哪兒|在哪|何处|何處|什么地方|什麼地方",
        person="谁|誰",
        manner="怎么|怎麼|如何|怎样|怎樣",
        amount="多少|几个|幾個|价格|價格",
        thing="什么|什麼|甚麼|哪个|哪個",
    ),
    negations=frozenset("不没沒别別未勿"),
    function_words=frozenset(
        [
            *"的了吗嗎呢吧啊是在有和与與我你您他她们們这這那个個请請问問一也就都会會能要给給帮幫本",
            "可以",
            "是不是",
            "有没有",
            "有沒有",
            "可不可以",
            "能不能",
            "会不会",
            "會不會",
            "要不要",
        ]
    ),
    stemmer=None,
)

LEXICONS: Mapping[str, Lexicon] = {
    "en": _ENGLISH,
    "de": _GERMAN,
    "es": _SPANISH,
    "fr": _FRENCH,
    "it": _ITALIAN,
    "nl": _DUTCH,
    "pl": _POLISH,
    "pt_BR": _PORTUGUESE,
    "zh_Hans": _CHINESE,
    "zh_Hant": _CHINESE,
}
"""Each catalogue's language (``bot.i18n.wording.LANGUAGES``) -> its words."""
