// The review page's script (inlined into the page by page.py; allowed by its SHA-256 in the CSP).
// Everything from the tree reaches the DOM through textContent / setAttribute, never as markup.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('mojifix-data').textContent);
  const cards = data.cards;
  const PAGE = data.page_size;
  const store = 'mojifix-review:' + data.report_id;
  let choices = {};   // card index -> reading index, or 'out'
  try { choices = JSON.parse(localStorage.getItem(store) || '{}'); } catch (e) { choices = {}; }
  let page = 0;
  const pages = Math.max(1, Math.ceil(cards.length / PAGE));
  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function remember() {
    try { localStorage.setItem(store, JSON.stringify(choices)); } catch (e) { /* file:// without storage */ }
    const n = Object.keys(choices).length;
    $('progress').textContent = n + ' of ' + cards.length + ' decided';
    $('save').textContent = 'Save decisions (' + n + ')';
  }
  function decisionOf(i) {
    const c = cards[i], pick = choices[i];
    if (pick === undefined) return null;
    const d = {path: c.path};
    if (c.path_hex) d.path_hex = c.path_hex;
    d.sha1 = c.sha1;
    if (pick === 'out') { d.encoding = null; return d; }
    const choice = c.readings[pick] && c.readings[pick].choice;
    if (!choice) return null;
    if (choice.segments) d.segments = choice.segments; else d.encoding = choice.encoding;
    return d;
  }
  function decisions() {
    const out = [];
    for (let i = 0; i < cards.length; i++) { const d = decisionOf(i); if (d) out.push(d); }
    return out;
  }
  function save() {
    const text = JSON.stringify(decisions(), null, 1) + '\n';
    const url = URL.createObjectURL(new Blob([text], {type: 'application/json'}));
    const a = el('a');
    a.href = url;
    a.download = data.decisions_name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
  function load(file) {
    file.text().then((text) => {
      const list = JSON.parse(text);
      const index = {};
      cards.forEach((c, i) => { index[(c.path_hex || c.path) + ' ' + c.sha1] = i; });
      let matched = 0;
      for (const d of list) {
        const i = index[(d.path_hex || d.path) + ' ' + d.sha1];
        if (i === undefined) continue;
        if (d.encoding === null) { choices[i] = 'out'; matched++; continue; }
        const want = JSON.stringify(d.segments || d.encoding);
        cards[i].readings.forEach((r, j) => {
          if (r.choice && JSON.stringify(r.choice.segments || r.choice.encoding) === want) { choices[i] = j; matched++; }
        });
      }
      $('loaded').textContent = matched + ' of ' + list.length + ' loaded decisions match this report';
      remember();
      render();
    }).catch((e) => { $('loaded').textContent = 'not a decisions file: ' + e; });
  }

  function pick(i, value) {
    if (value === null) delete choices[i]; else choices[i] = value;
    remember();
    const card = document.getElementById('card-' + i);
    if (card) paint(card, i);
  }
  function paint(card, i) {
    const v = choices[i];
    card.classList.toggle('decided', v !== undefined && v !== 'out');
    card.classList.toggle('out', v === 'out');
    card.querySelectorAll('input[type=radio]').forEach((r) => {
      r.checked = (r.value === 'none' && v === undefined) || r.value === String(v);
    });
    card.querySelectorAll('.reading').forEach((r, j) => r.classList.toggle('chosen', v === j));
  }

  // C0 controls (but tab, line feed, carriage return) and DEL drawn as their control pictures (U+2400...)
  const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
  const visible = (s) => s.replace(CONTROLS, (c) => String.fromCharCode(c === '\u007f' ? 0x2421 : 0x2400 + c.charCodeAt(0)));
  function textBlock(part) {
    const pre = el('pre', 'text');
    pre.setAttribute('dir', 'auto');
    pre.setAttribute('lang', part.lang || 'und');
    part.runs.forEach((run, k) => {
      if (!run) return;
      if (k % 2 === 1) pre.appendChild(el('mark', null, visible(run)));
      else pre.appendChild(document.createTextNode(visible(run)));
    });
    return pre;
  }
  function radio(i, value, labelText, key) {
    const lab = el('label');
    const r = el('input');
    r.type = 'radio';
    r.name = 'choice-' + i;
    r.value = value;
    r.addEventListener('change', () => pick(i, value === 'none' ? null : (value === 'out' ? 'out' : Number(value))));
    lab.appendChild(r);
    if (key) { lab.appendChild(document.createTextNode(' ')); lab.appendChild(el('kbd', null, key)); }
    lab.appendChild(document.createTextNode(' ' + labelText));
    return lab;
  }
  function evidence(c) {
    const det = el('details');
    det.appendChild(el('summary', null, 'Why it was quarantined: ' + c.verification));
    const t = el('table');
    const row = (k, v) => { const tr = el('tr'); tr.appendChild(el('th', null, k)); tr.appendChild(el('td', null, v)); t.appendChild(tr); };
    row('verification', c.verification);
    row('reason', c.reason);
    c.candidates.forEach((cd) => row('candidate', cd[0] + '  confidence ' + (cd[1] === null ? '-' : Number(cd[1]).toFixed(4)) + (cd[2] ? '  language ' + cd[2] : '')));
    if (c.mixed) {
      row('boundary', 'byte ' + c.mixed.boundary);
      row('head', c.mixed.head_encoding);
      row('tail', c.mixed.tail_encoding);
      row('split evidence', c.mixed.evidence);
    }
    c.warnings.forEach((w) => row('warning', w));
    c.evidence.forEach((e) => row('detector: ' + e[0], e[1]));
    det.appendChild(t);
    return det;
  }
  function dump(c) {
    const d = c.dump;
    const box = el('details', 'dump');
    box.appendChild(el('summary', null, 'Bytes around the first difference (byte ' + d.at + ')'));
    const t = el('table');
    const tr = el('tr');
    tr.appendChild(el('th', null, 'bytes from ' + d.start));
    const hex = el('td', 'hex');
    d.bytes.split(' ').forEach((b, k) => {
      hex.appendChild(el('span', d.start + k === d.at ? 'at' : null, b));
      hex.appendChild(document.createTextNode(' '));
    });
    tr.appendChild(hex);
    t.appendChild(tr);
    d.readings.forEach((r) => {
      const row = el('tr');
      row.appendChild(el('th', null, r.label));
      const td = el('td', 'hex');
      r.chars.forEach((ch) => {
        td.appendChild(el(ch[4] ? 'mark' : 'span', null, ch[1] + ' \u2192 ' + visible(ch[2]) + ' (' + ch[3] + ')'));
        td.appendChild(document.createTextNode('   '));
      });
      row.appendChild(td);
      t.appendChild(row);
    });
    box.appendChild(t);
    return box;
  }
  function card(i) {
    const c = cards[i];
    const art = el('article', 'card');
    art.id = 'card-' + i;
    art.tabIndex = 0;
    art.dataset.index = String(i);
    art.appendChild(el('h2', null, (i + 1) + '. ' + c.path));
    art.appendChild(el('div', 'meta', c.size + ' bytes \u00b7 sha1 ' + c.sha1 + ' \u00b7 ' + c.verification));
    art.appendChild(el('div', 'reason', c.reason));
    if (c.problem) art.appendChild(el('div', 'why', c.problem));
    art.appendChild(evidence(c));
    const grid = el('div', 'readings');
    c.readings.forEach((r, j) => {
      const sec = el('section', 'reading' + (r.choice ? '' : ' blocked'));
      const head = el('header');
      const title = r.label + (r.confidence === null || r.confidence === undefined ? '' : ' (' + Number(r.confidence).toFixed(2) + ')');
      if (r.choice) head.appendChild(radio(i, String(j), title, j < 9 ? String(j + 1) : null));
      else head.appendChild(el('span', null, title));
      sec.appendChild(head);
      sec.appendChild(r.choice ? el('div', 'ok', 'lossless over every byte') : el('div', 'why', 'cannot be chosen: ' + r.why_not));
      r.parts.forEach((p, k) => {
        if (k > 0) sec.appendChild(el('div', 'boundary', 'boundary at byte ' + p.start));
        sec.appendChild(el('div', 'part-label', p.label + ' \u00b7 bytes ' + p.start + '\u2013' + p.end + (p.aligned ? '' : ' \u00b7 differences not marked')));
        sec.appendChild(textBlock(p));
      });
      grid.appendChild(sec);
    });
    art.appendChild(grid);
    const ch = el('div', 'choices');
    if (c.settleable) ch.appendChild(radio(i, 'out', 'leave out (no output)', '0'));
    ch.appendChild(radio(i, 'none', 'undecided', 'u'));
    art.appendChild(ch);
    if (c.dump) art.appendChild(dump(c));
    paint(art, i);
    return art;
  }
  function render() {
    const box = $('cards');
    box.replaceChildren();
    const lo = page * PAGE, hi = Math.min(cards.length, lo + PAGE);
    for (let i = lo; i < hi; i++) box.appendChild(card(i));
    $('page').textContent = 'page ' + (page + 1) + ' of ' + pages + ' (cards ' + (cards.length ? lo + 1 : 0) + '\u2013' + hi + ')';
    $('prev').disabled = page === 0;
    $('next').disabled = page >= pages - 1;
  }
  function go(p) {
    page = Math.max(0, Math.min(pages - 1, p));
    render();
    const first = $('cards').firstElementChild;
    if (first) first.focus();
  }
  function current() {
    const a = document.activeElement && document.activeElement.closest && document.activeElement.closest('.card');
    return a ? Number(a.dataset.index) : null;
  }
  function move(step) {
    const cur = current();
    let next = cur === null ? page * PAGE : cur + step;
    if (next < 0 || next >= cards.length) return;
    if (Math.floor(next / PAGE) !== page) { page = Math.floor(next / PAGE); render(); }
    const target = document.getElementById('card-' + next);
    target.focus();
    target.scrollIntoView({block: 'start'});
  }
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && t.tagName === 'INPUT' && (ev.key.startsWith('Arrow') || ev.key === ' ')) return;  // radios keep their keys
    const cur = current();
    const k = ev.key;
    if (k === 'j' || k === 'ArrowDown') { move(1); }
    else if (k === 'k' || k === 'ArrowUp') { move(-1); }
    else if (k === 'n' || k === 'PageDown') { go(page + 1); }
    else if (k === 'p' || k === 'PageUp') { go(page - 1); }
    else if (k === 's') { save(); }
    else if (k === '?') { $('keys').hidden = !$('keys').hidden; }
    else if (cur !== null && /^[1-9]$/.test(k)) {
      const j = Number(k) - 1, r = cards[cur].readings[j];
      if (!r || !r.choice) return;
      pick(cur, j); move(1);
    }
    else if (cur !== null && (k === '0' || k === 'x')) { if (cards[cur].settleable) pick(cur, 'out'); move(1); }
    else if (cur !== null && k === 'u') { pick(cur, null); }
    else return;
    ev.preventDefault();
  });
  $('prev').addEventListener('click', () => go(page - 1));
  $('next').addEventListener('click', () => go(page + 1));
  $('save').addEventListener('click', save);
  $('load').addEventListener('change', (ev) => { if (ev.target.files[0]) load(ev.target.files[0]); });
  window.mojifixReview = {decisions: decisions, pages: pages};
  remember();
  render();
  document.body.dataset.ready = '1';
})();
