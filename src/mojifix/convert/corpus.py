"""Generator of mixed legacy trees from the project's own texts (demo, tests, benchmark).

The reference study's kind of corpus: files in UTF-8, UTF-8 with BOM, GBK, GB18030 (with characters
GBK cannot encode), Big5, windows-1252, UTF-16LE and UTF-16BE without BOM; some short; some corrupted
by a tail appended in another encoding. Texts are sentences written for mojifix (simplified and
traditional Chinese, English, French, German, Spanish) plus pseudo-sentences drawn from ``wordfreq``'s
word lists when it is installed, so every file is different. Ground truth (encoding, text, boundary)
is returned to the caller, never written into the tree.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ENCODINGS", "HELD_OUT_SENTENCES", "Truth", "generate", "make_text"]

SENTENCES: dict[str, tuple[str, ...]] = {
    "zh-Hans": (
        "这个目录里的文件来自不同的年代，有的用国标码保存，有的用统一码保存。",
        "我们先检查每一个字节，再决定它属于哪一种编码。",
        "如果解码后再编码得不到原来的字节，就不能说转换是无损的。",
        "会议记录放在第二个文件夹里，请在星期五之前看完。",
        "北京的秋天很短，树叶在十月就变黄了。",
        "他把旧电脑里的资料复制到新的硬盘上，却发现文件名全是乱码。",
        "图书馆新到了一批关于历史和地理的书。",
        "请把报告的第三部分改成简体中文，并在下周一发给我。",
        "这家小店的面条做得很好吃，价格也不贵。",
        "孩子们在公园里放风筝，老人们在树下下棋。",
        "系统管理员说，明天上午九点到十点服务器要维护。",
        "我们需要一份清单，列出每个文件的编码、大小和校验值。",
        "天气预报说今天晚上有小雨，出门记得带伞。",
        "这本小说讲的是一个普通家庭三代人的故事。",
    ),
    "zh-Hant": (
        "這個目錄裡的檔案來自不同的年代，有的用大五碼儲存，有的用統一碼儲存。",
        "我們先檢查每一個位元組，再決定它屬於哪一種編碼。",
        "如果解碼後再編碼得不到原來的位元組，就不能說轉換是無損的。",
        "會議紀錄放在第二個資料夾裡，請在星期五之前看完。",
        "臺北的夏天很長，颱風季節常常下大雨。",
        "他把舊電腦裡的資料複製到新的硬碟上，卻發現檔名全是亂碼。",
        "圖書館新到了一批關於歷史和地理的書籍。",
        "請把報告的第三部分改成繁體中文，並在下週一寄給我。",
        "這家小店的牛肉麵做得很好吃，價格也不貴。",
        "孩子們在公園裡放風箏，老人們在樹下下棋。",
        "系統管理員說，明天上午九點到十點伺服器要維護。",
        "我們需要一份清單，列出每個檔案的編碼、大小和檢查碼。",
        "氣象報告說今天晚上有小雨，出門記得帶傘。",
        "這本小說講的是一個普通家庭三代人的故事。",
    ),
    "en": (
        "The archive holds files written over twenty years by people who never agreed on an encoding.",
        "Every byte is checked before anything is written to the destination directory.",
        "A conversion that cannot be proven lossless is not a conversion; it is a guess.",
        "The meeting notes are in the second folder; please read them before Friday.",
        "Our café on the corner sells crème brûlée for €4.50 — “worth every cent”, they say.",
        "The old server stored its logs in whatever code page the operator happened to use.",
        "Please send the revised figures by Monday morning.",
        "Nothing in the source tree is renamed, rewritten or even touched.",
        "Short files are the hardest: a dozen bytes rarely say which encoding wrote them.",
        "The report lists the encoding, the size and the checksum of every file.",
    ),
    "fr": (
        "Les fichiers de ce répertoire ont été écrits à des époques différentes.",
        "Chaque octet est vérifié avant que quoi que ce soit ne soit écrit.",
        "Le compte rendu de la réunion se trouve dans le deuxième dossier ; lisez-le avant vendredi.",
        "À Noël, la pâtisserie du coin vend des bûches à 12 € — « un prix honnête », dit-on.",
        "L’ancien serveur enregistrait ses journaux dans la page de code de l’opérateur.",
        "Une conversion qu’on ne peut pas prouver sans perte n’est qu’une supposition.",
        "Les élèves ont étudié l’œuvre de Molière pendant tout le trimestre.",
        "Où est passé le cœur du problème ? Dans les octets, évidemment.",
        "Veuillez envoyer les chiffres révisés lundi matin, s’il vous plaît.",
        "Ça ne coûte presque rien, mais ça évite bien des déceptions.",
    ),
    "de": (
        "Die Dateien in diesem Verzeichnis stammen aus verschiedenen Jahrzehnten und Zeichensätzen.",
        "Jedes Byte wird geprüft, bevor irgendetwas geschrieben wird.",
        "Das Protokoll der Besprechung liegt im zweiten Ordner; bitte bis Freitag lesen.",
        "Die Bäckerei gegenüber verkauft Brötchen für 0,45 € – „günstig“, sagen die Nachbarn.",
        "Über die Größe der Datei hinaus zählt nur, ob die Umwandlung verlustfrei ist.",
        "Der alte Server schrieb seine Protokolle in der Codepage des jeweiligen Benutzers.",
        "Schöne Grüße aus München, wo es heute regnet und die Straßen glänzen.",
        "Bitte schicken Sie die überarbeiteten Zahlen bis Montagmorgen.",
        "Nichts im Quellbaum wird umbenannt, verändert oder auch nur berührt.",
        "Kurze Dateien sind schwierig: ein Dutzend Bytes verrät selten ihre Kodierung.",
    ),
    "es": (
        "Los archivos de este directorio se escribieron en épocas distintas y con codificaciones distintas.",
        "Cada byte se comprueba antes de escribir nada en el destino.",
        "El acta de la reunión está en la segunda carpeta; léala antes del viernes, por favor.",
        "La panadería de la esquina vende ensaimadas a 2 € — «baratísimas», dicen los vecinos.",
        "¿Dónde está el año pasado? En la niñez de quien guardó estos ficheros.",
        "El servidor antiguo guardaba sus registros en la página de códigos del operador.",
        "Una conversión que no se puede demostrar sin pérdidas no es más que una suposición.",
        "Envíe las cifras revisadas el lunes por la mañana, por favor.",
        "Nada del árbol de origen se renombra, se modifica ni se toca.",
        "Los archivos cortos son los más difíciles: una docena de bytes casi nunca delata su codificación.",
    ),
}

#: A second set of sentences, written for the held-out benchmark tree (``texts="held-out"``): never
#: part of any detector training input (the detector trains on wordfreq lists and gettext catalogs;
#: ``SENTENCES`` above also feeds the demo and the tests), so a run over them measures text the
#: detector has not seen. Same languages, other topics: weather, cooking, trains, gardens, repairs.
HELD_OUT_SENTENCES: dict[str, tuple[str, ...]] = {
    "zh-Hans": (
        "昨天下午我们去了河边的菜市场，买了两斤青菜和一条鱼。",
        "火车晚点了四十分钟，站台上的人都在看手机。",
        "奶奶说，包饺子的时候馅儿不能放太多盐。",
        "楼下的自行车棚终于修好了，再也不怕下雨了。",
        "老师让每个学生写一篇关于家乡的短文，不少于五百字。",
        "这台洗衣机用了十二年，上个月才第一次坏。",
        "春节前后，去南方的车票总是很难买到。",
        "他在阳台上种了番茄和辣椒，夏天收了满满一筐。",
        "邻居家的小狗每天早上六点准时叫醒整栋楼。",
        "我们打算周末去爬山，如果天气好的话就在山顶野餐。",
        "这条街上新开了一家书店，里面还可以喝咖啡。",
        "工程师检查了桥梁的每一根钢索，确认没有问题。",
    ),
    "zh-Hant": (
        "昨天下午我們去了河邊的菜市場，買了兩斤青菜和一條魚。",
        "火車誤點了四十分鐘，月臺上的人都在看手機。",
        "奶奶說，包餃子的時候餡兒不能放太多鹽。",
        "樓下的腳踏車棚終於修好了，再也不怕下雨了。",
        "老師讓每個學生寫一篇關於家鄉的短文，不少於五百字。",
        "這臺洗衣機用了十二年，上個月才第一次壞。",
        "過年前後，往南部的車票總是很難買到。",
        "他在陽臺上種了番茄和辣椒，夏天收了滿滿一籃。",
        "鄰居家的小狗每天早上六點準時叫醒整棟樓。",
        "我們打算週末去爬山，如果天氣好的話就在山頂野餐。",
        "這條街上新開了一家書店，裡面還可以喝咖啡。",
        "工程師檢查了橋樑的每一根鋼索，確認沒有問題。",
    ),
    "en": (
        "The train to Leeds was forty minutes late, so we shared a pot of tea on the platform.",
        "Grandma's recipe says a pinch of nutmeg, which in practice means half the jar.",
        "The bike shed behind the flats was finally repaired after the winter storms.",
        "Renée from accounts brought a tarte Tatin that vanished before ten o'clock.",
        "Water the tomatoes in the evening; the leaves scorch if they stay wet in the sun.",
        "The bridge inspectors climbed every cable and found nothing worse than rust stains.",
        "Tickets cost £12 return — “cheaper than parking”, the conductor said with a grin.",
        "Our washing machine ran for twelve years and broke the week after the warranty talk.",
        "If it stays dry on Saturday we will walk up the ridge and eat lunch by the cairn.",
        "The new bookshop on the high street also sells coffee and secondhand maps.",
    ),
    "fr": (
        "Le train pour Lyon avait quarante minutes de retard ; nous avons pris un café sur le quai.",
        "La recette de ma grand-mère demande une pincée de muscade, c’est-à-dire la moitié du pot.",
        "Le local à vélos derrière l’immeuble a enfin été réparé après les tempêtes d’hiver.",
        "Arrosez les tomates le soir : les feuilles brûlent si elles restent mouillées au soleil.",
        "Les inspecteurs ont grimpé le long de chaque câble du pont sans trouver de fissure.",
        "Le billet coûte 12 € aller-retour — « moins cher que le parking », a dit le contrôleur.",
        "Notre lave-linge a tenu douze ans et il est tombé en panne juste après l’été.",
        "S’il fait beau samedi, nous monterons jusqu’au col et déjeunerons près du refuge.",
        "La nouvelle librairie de la rue principale sert aussi du thé et des crêpes.",
        "Élodie a apporté une tarte aux poires qui a disparu avant dix heures.",
    ),
    "de": (
        "Der Zug nach Köln hatte vierzig Minuten Verspätung, also tranken wir Kaffee am Bahnsteig.",
        "Omas Rezept verlangt eine Prise Muskat, was in der Praxis das halbe Glas bedeutet.",
        "Der Fahrradschuppen hinter dem Haus wurde nach den Winterstürmen endlich repariert.",
        "Gießen Sie die Tomaten abends; die Blätter verbrennen, wenn sie in der Sonne nass bleiben.",
        "Die Prüfer sind jedes Seil der Brücke hinaufgeklettert und fanden nur ein wenig Rost.",
        "Die Fahrkarte kostet 12 € hin und zurück – „billiger als das Parkhaus“, sagte der Schaffner.",
        "Unsere Waschmaschine lief zwölf Jahre und ging genau nach dem Umzug kaputt.",
        "Wenn es am Samstag trocken bleibt, wandern wir zur Hütte und essen dort zu Mittag.",
        "Die neue Buchhandlung in der Hauptstraße verkauft auch Tee und gebrauchte Landkarten.",
        "Jürgen hat einen Apfelkuchen mitgebracht, der vor zehn Uhr verschwunden war.",
    ),
    "es": (
        "El tren a Sevilla llevaba cuarenta minutos de retraso, así que tomamos café en el andén.",
        "La receta de mi abuela pide una pizca de nuez moscada, o sea, medio bote.",
        "El cobertizo de las bicicletas por fin se arregló después de las tormentas de invierno.",
        "Riegue los tomates por la tarde: las hojas se queman si siguen mojadas al sol.",
        "Los inspectores subieron por cada cable del puente y sólo encontraron un poco de óxido.",
        "El billete cuesta 12 € ida y vuelta — «más barato que el aparcamiento», dijo el revisor.",
        "Nuestra lavadora duró doce años y se estropeó justo después de la mudanza.",
        "Si el sábado no llueve, subiremos al refugio y comeremos allí con vistas al valle.",
        "La nueva librería de la calle mayor también vende té y mapas de segunda mano.",
        "Begoña trajo una tarta de Santiago que desapareció antes de las diez.",
    ),
}

#: characters a GBK encoder cannot encode but gb18030 can (four-byte sequences): CJK extension B,
#: emoji, Hangul syllables, capital sharp s
GB18030_ONLY: tuple[str, ...] = ("𠮷", "😀", "한국어", "ẞ", "𪚥", "🙂", "㐀")

#: corpus label -> (encoding used to write it, languages it can hold, BOM bytes)
ENCODINGS: dict[str, tuple[str, tuple[str, ...], bytes]] = {
    "utf-8": ("utf-8", ("zh-Hans", "zh-Hant", "en", "fr", "de", "es"), b""),
    "utf-8-bom": ("utf-8", ("zh-Hans", "zh-Hant", "en", "fr", "de", "es"), b"\xef\xbb\xbf"),
    "gbk": ("gbk", ("zh-Hans",), b""),
    "gb18030": ("gb18030", ("zh-Hans",), b""),
    "big5": ("big5", ("zh-Hant",), b""),
    "cp1252": ("cp1252", ("en", "fr", "de", "es"), b""),
    "utf-16le": ("utf-16-le", ("zh-Hans", "zh-Hant", "en", "fr", "de", "es"), b""),
    "utf-16be": ("utf-16-be", ("zh-Hans", "zh-Hant", "en", "fr", "de", "es"), b""),
}
#: the encoding name mojifix's detector reports for each corpus label (for checking answers)
EXPECTED_NAME = {
    "utf-8": "UTF-8",
    "utf-8-bom": "UTF-8",
    "gbk": "GBK",
    "gb18030": "gb18030",
    "big5": "Big5",
    "cp1252": "windows-1252",
    "utf-16le": "UTF-16LE",
    "utf-16be": "UTF-16BE",
}
#: labels whose bytes one decoder reads alike: a tail in the same group is not a corruption
_GROUP = {"utf-8": "u8", "utf-8-bom": "u8", "gbk": "gb", "gb18030": "gb"}

_WORDFREQ_LANG = {"zh-Hans": "zh", "en": "en", "fr": "fr", "de": "de", "es": "es"}
_WORDS: dict[str, list[str]] = {}


def _words(lang: str) -> list[str]:
    if lang not in _WORDS:
        words: list[str] = []
        wf = _WORDFREQ_LANG.get(lang)
        if wf is not None:
            try:
                from wordfreq import top_n_list

                words = [w for w in top_n_list(wf, 800) if w.isalpha()]
            except ImportError:  # wordfreq is a dev dependency; own sentences alone still work
                words = []
        _WORDS[lang] = words
    return _WORDS[lang]


def _sentence(rng: random.Random, lang: str, texts: str = "project") -> str:
    if texts == "held-out":
        return rng.choice(HELD_OUT_SENTENCES[lang])
    words = _words(lang)
    if words and rng.random() < 0.35:
        n = rng.randint(6, 14)
        picked = [rng.choice(words) for _ in range(n)]
        if lang.startswith("zh"):
            return "".join(picked) + "。"
        s = " ".join(picked)
        return s[0].upper() + s[1:] + "."
    return rng.choice(SENTENCES[lang])


def make_text(
    rng: random.Random, lang: str, target_bytes: int, label: str = "utf-8", texts: str = "project"
) -> str:
    """Lines of sentences in ``lang`` until about ``target_bytes`` (UTF-8 size), encodable in ``label``.

    ``texts``: "project" (``SENTENCES`` plus wordfreq pseudo-sentences) or "held-out"
    (``HELD_OUT_SENTENCES`` only: text no detector training input contains).
    """
    encoding = ENCODINGS[label][0]
    lines: list[str] = []
    size = 0
    while size < target_bytes or not lines:
        line = " ".join(_sentence(rng, lang, texts) for _ in range(rng.randint(1, 3)))
        if label == "gb18030" and rng.random() < 0.5:
            line += " " + rng.choice(GB18030_ONLY)
        if not _encodable(line, encoding):
            continue
        lines.append(line)
        size += len(line.encode()) + 1
    text = "\n".join(lines) + "\n"
    if label == "gb18030" and not any(ch in text for ch in GB18030_ONLY):
        text = text + rng.choice(GB18030_ONLY) + "\n"
    return text


def _encodable(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Truth:
    """Ground truth of one generated file (kept outside the tree)."""

    path: str
    label: str
    text: str  # the file's text (without BOM); for a corrupted file, head text + tail text
    size: int
    tail_label: str | None = None
    boundary: int | None = None  # byte offset where the appended tail starts
    short: bool = False

    @property
    def clean(self) -> bool:
        return self.tail_label is None


def _pick_tail(rng: random.Random, head: str) -> str:
    options = [lab for lab in ENCODINGS if lab != head and _GROUP.get(lab, lab) != _GROUP.get(head, head)]
    return rng.choice(options)


def generate(
    root: str | os.PathLike[str],
    files_per_encoding: int = 50,
    *,
    labels: Sequence[str] = tuple(ENCODINGS),
    short_fraction: float = 0.15,
    corrupted: int = 40,
    mean_bytes: int = 4800,
    seed: int = 5,
    subdirs: int = 8,
    texts: str = "project",
) -> list[Truth]:
    """Write the corpus under ``root``; returns the ground truth, one entry per file.

    ``texts="held-out"`` writes only :data:`HELD_OUT_SENTENCES` (see :func:`make_text`).

    ``corrupted`` files (spread over the encodings) get 1-3 lines appended in another encoding
    (never one that the same decoder reads, e.g. GBK after GB18030). File names say nothing about
    the encoding.
    """
    if texts not in ("project", "held-out"):
        raise ValueError(f"texts must be 'project' or 'held-out', not {texts!r}")
    rng = random.Random(seed)
    os.makedirs(root, exist_ok=True)
    plan: list[tuple[str, bool]] = []
    for label in labels:
        for _ in range(files_per_encoding):
            plan.append((label, rng.random() < short_fraction))
    rng.shuffle(plan)
    corrupt_idx = set(
        rng.sample([i for i, (_, short) in enumerate(plan) if not short], min(corrupted, len(plan)))
    )
    truths: list[Truth] = []
    for i, (label, short) in enumerate(plan):
        encoding, langs, bom = ENCODINGS[label]
        lang = rng.choice(langs)
        target = rng.randint(20, 120) if short else max(400, int(rng.gauss(mean_bytes, mean_bytes / 3)))
        text = make_text(rng, lang, target, label, texts)
        if short:
            text = text.split("\n")[0][: max(4, target // 3)]
        data = bom + text.encode(encoding)
        tail_label = boundary = None
        if i in corrupt_idx:
            tail_label = _pick_tail(rng, label)
            t_enc, t_langs, _ = ENCODINGS[tail_label]
            t_text = ""
            while t_text.isascii():  # an all-ASCII tail reads the same in every encoding: no corruption
                t_text = make_text(rng, rng.choice(t_langs), rng.randint(60, 400), tail_label, texts)
            boundary = len(data)
            data += t_text.encode(t_enc)
            text += t_text
        rel = f"d{i % subdirs}/f{i:05d}.txt"
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        truths.append(Truth(rel, label, text, len(data), tail_label, boundary, short))
    return truths
