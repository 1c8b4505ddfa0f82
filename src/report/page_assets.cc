// The report page's stylesheet and script. Kept apart from report.cc so the generator reads as
// data flow; both are plain text without any data from the store.
#include "page_assets.h"

namespace revsum::report_internal {

const char kPageCss[] = R"css(
:root{--praise:#2e8b57;--complaint:#c0392b;--neutral:#6f7c85;--unknown:#aab3ba;--ink:#1d2327;
--muted:#65707a;--line:#e3e6e8}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 "Noto Sans","DejaVu Sans","Noto Sans CJK SC","Noto Sans CJK TC",
"Noto Sans CJK JP",sans-serif;color:var(--ink);background:#f6f7f9}
header,main{max-width:1180px;margin:0 auto;padding:0 20px}
header{padding-top:14px}
h1{font-size:1.45em;margin:.2em 0}
h2{font-size:1.25em;margin:0 0 .1em;overflow-wrap:anywhere}
h3{font-size:1em;margin:.9em 0 .4em}
h4{font-size:.78em;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:.9em 0 .2em}
.hint,.muted,.facts{color:var(--muted);font-weight:normal;font-size:.86em}
.note{font-size:.84em;color:var(--muted);margin:.4em 0}
.d{unicode-bidi:isolate;overflow-wrap:anywhere}
code{font-size:.95em;background:#eef0f2;border-radius:3px;padding:0 3px}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:14px 0}
a{color:#1f5fa8;text-decoration:none}a:hover{text-decoration:underline}
.key{display:inline-block;padding:0 6px;border-radius:3px;color:#fff;font-size:.9em}
.key.praise{background:var(--praise)}.key.complaint{background:var(--complaint)}
.key.neutral{background:var(--neutral)}.key.unknown{background:var(--unknown)}
table.index{border-collapse:collapse;width:100%;font-size:.9em}
table.index th,table.index td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);
vertical-align:top}
table.index th{font-size:.8em;color:var(--muted);font-weight:600}
table.index .num{text-align:right;font-variant-numeric:tabular-nums}
td.biggest{width:34%}
.biggest .pct{font-weight:600;font-variant-numeric:tabular-nums}
.biggest.praise .pct{color:var(--praise)}.biggest.complaint .pct{color:var(--complaint)}
.ratings{display:inline-flex;align-items:flex-end;gap:2px}
.ratings.big{gap:6px;margin-bottom:4px}
.rbin{display:flex;flex-direction:column;align-items:center;width:9px}
.ratings.big .rbin{width:34px}
.rcol{display:flex;align-items:flex-end;width:100%;height:26px}
.ratings.big .rcol{height:80px}
.rbar{width:100%;background:#5b7db1;min-height:1px;border-radius:2px 2px 0 0}
.rlabel{font-size:.8em}.rcount{font-size:.72em;color:var(--muted);font-variant-numeric:tabular-nums}
.cols{display:grid;grid-template-columns:minmax(150px,230px) minmax(0,1fr);gap:26px}
@media (max-width:820px){.cols{grid-template-columns:minmax(0,1fr)}}
ol.points{list-style:none;margin:0;padding:0}
li.point{display:grid;grid-template-columns:110px 3.8em minmax(0,1fr);
grid-template-areas:"track pct text" ". . meta";column-gap:10px;align-items:center;padding:5px 8px;
border-radius:6px;cursor:pointer;border-left:4px solid var(--c)}
li.point:hover,li.point:focus{background:#f0f3f7;outline:none}
li.point[aria-expanded=true]{background:#e9f0f8}
.point.praise,.evidence.praise{--c:var(--praise)}.point.complaint,.evidence.complaint{--c:var(--complaint)}
.point.neutral,.evidence.neutral{--c:var(--neutral)}.point.unknown,.evidence.unknown{--c:var(--unknown)}
.track{grid-area:track;height:12px;background:#eceff1;border-radius:6px;overflow:hidden}
.bar{height:100%;background:var(--c)}
li.point .pct{grid-area:pct;font-variant-numeric:tabular-nums;font-weight:600;text-align:right}
.ptext{grid-area:text}
.meta{grid-area:meta;font-size:.78em;color:var(--muted)}
.aspect{background:#e8ecf7;border-radius:3px;padding:0 4px;color:#34487a}
li.evidence{list-style:none;margin:2px 0 12px 18px;padding:6px 12px;border-left:3px solid var(--c);
background:#fafbfd}
.ev-count{font-size:.8em;color:var(--muted)}
.ev-item{margin:8px 0}
.ev-head{font-size:.78em;color:var(--muted)}
blockquote{margin:1px 0;white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:isolate}
mark{background:#ffe27a;padding:0 1px;border-radius:2px}
.attention label{font-size:.9em}
.att-select{max-width:100%;font:inherit;font-size:.9em}
.att-meta{font-size:.85em;color:var(--muted);margin:6px 0}
table.att{border-collapse:separate;border-spacing:0 2px;font-size:.88em;margin-top:6px;width:100%}
table.att td{padding:3px 6px;vertical-align:top}
table.att td.s{width:100%;border-radius:3px}
table.att td.w{font-variant-numeric:tabular-nums;color:var(--muted);white-space:nowrap;text-align:right}
table.att td.hc{min-width:20px;width:20px;padding:0;border:1px solid #fff}
table.att th{font-weight:normal;color:var(--muted);font-size:.78em;text-align:left}
table.att th.hh{writing-mode:vertical-rl;transform:rotate(180deg);padding:2px 0;white-space:nowrap;
text-align:left;vertical-align:bottom}
dl.legend{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:1px 12px;font-size:.8em;
margin:10px 0 0}
dl.legend dt{font-weight:600}dl.legend dd{margin:0;color:var(--muted)}
@media print{
body{background:#fff;font-size:10pt}
header,main{max-width:none;padding:0}
section{border:none;border-radius:0;padding:0;margin:0 0 14pt}
section.product{break-before:page}
li.point,li.evidence,tr,.ev-item{break-inside:avoid}
.attention label,.hint{display:none}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
a{color:inherit}
}
)css";

const char kPageScript[] = R"js(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('revsum-data').textContent);
  var BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function rating(r) { return r === null ? '' : ' \u00b7 rating ' + r; }
  function shortHead(h) {
    if (h === 'consensus') return 'consensus';
    if (h.indexOf('aspect:') === 0) return h.slice(7);
    return h;
  }

  // A point's evidence: its member sentences, each inside its review, highlighted.
  function toggleEvidence(li) {
    var next = li.nextElementSibling;
    if (next && next.classList.contains('evidence')) {
      next.remove();
      li.setAttribute('aria-expanded', 'false');
      return;
    }
    var product = data.products[+li.dataset.productIndex];
    var point = product.points[+li.dataset.k];
    var polarity = ['praise', 'complaint', 'neutral', 'unknown'].filter(function (c) {
      return li.classList.contains(c);
    })[0] || 'unknown';
    var box = el('li', 'evidence ' + polarity);
    box.dataset.pointId = String(point.id);
    box.appendChild(el('div', 'ev-count', 'Evidence: ' + point.evidence.length + ' of ' +
        point.members + ' member sentences' +
        (point.evidence.length < point.members ? ' (the others are in the store)' : '')));
    point.evidence.forEach(function (e, i) {
      var item = el('div', 'ev-item');
      item.dataset.sentence = String(e.sentence);
      item.dataset.review = String(e.review);
      var head = el('div', 'ev-head', (i === 0 ? 'representative \u00b7 ' : '') + 'review ' +
          e.review + rating(e.rating) + ' \u00b7 similarity ' + e.sim);
      if (e.ext) {
        head.appendChild(document.createTextNode(' \u00b7 id '));
        head.appendChild(el('span', 'd', e.ext));
      }
      var sampled = product.reviews.findIndex(function (r) { return r.id === e.review; });
      if (sampled >= 0) {
        var link = el('a', 'to-attention', 'attention \u2193');
        link.href = '#';
        link.addEventListener('click', function (ev) {
          ev.preventDefault();
          var select = document.querySelector('select.att-select[data-product-index="' +
              li.dataset.productIndex + '"]');
          select.value = String(sampled);
          renderAttention(select);
          select.closest('.attention').scrollIntoView({block: 'start'});
        });
        head.appendChild(document.createTextNode(' \u00b7 '));
        head.appendChild(link);
      }
      item.appendChild(head);
      var q = el('blockquote');
      q.appendChild(document.createTextNode((e.cut[0] ? '\u2026' : '') + e.pre));
      q.appendChild(el('mark', null, e.hit + (e.cut[1] ? '\u2026' : '')));
      q.appendChild(document.createTextNode(e.post + (e.cut[2] ? '\u2026' : '')));
      item.appendChild(q);
      box.appendChild(item);
    });
    li.after(box);
    li.setAttribute('aria-expanded', 'true');
  }

  document.querySelectorAll('li.point').forEach(function (li) {
    li.addEventListener('click', function () { toggleEvidence(li); });
    li.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        toggleEvidence(li);
      }
    });
  });

  // A review's sentences shaded by final weight, and the per-head heatmap.
  function renderAttention(select) {
    var index = +select.dataset.productIndex;
    var product = data.products[index];
    var review = product.reviews[+select.value];
    var view = document.querySelector('.att-view[data-product-index="' + index + '"]');
    view.textContent = '';
    var meta = el('div', 'att-meta', 'review ' + review.id + rating(review.rating) + ' \u00b7 ' +
        review.total + (review.total === 1 ? ' sentence' : ' sentences') +
        (review.total > review.sentences.length ? ', the first ' + review.sentences.length +
         ' shown' : ''));
    if (review.title) {
      meta.appendChild(document.createTextNode(' \u00b7 title: '));
      meta.appendChild(el('span', 'd', review.title));
    }
    view.appendChild(meta);
    var heads = product.heads;
    var maxW = 0, maxH = heads.map(function () { return 0; });
    review.sentences.forEach(function (s) {
      if (s.w === undefined) return;
      maxW = Math.max(maxW, s.w);
      s.h.forEach(function (v, k) { maxH[k] = Math.max(maxH[k], v); });
    });
    var table = el('table', 'att');
    var tr = el('tr');
    tr.appendChild(el('th', null, 'sentence'));
    tr.appendChild(el('th', null, 'weight'));
    heads.forEach(function (h) {
      var th = el('th', 'hh', shortHead(h));
      th.title = h;
      tr.appendChild(th);
    });
    var thead = el('thead');
    thead.appendChild(tr);
    table.appendChild(thead);
    var body = el('tbody');
    review.sentences.forEach(function (s) {
      var row = el('tr');
      var cell = el('td', 's d', s.t);
      var w = s.w === undefined ? null : s.w;
      if (w !== null && maxW > 0) {
        cell.style.background = 'rgba(255,150,0,' + (0.06 + 0.6 * w / maxW).toFixed(3) + ')';
      }
      row.appendChild(cell);
      row.appendChild(el('td', 'w', w === null ? 'no score' : w.toExponential(2)));
      heads.forEach(function (h, k) {
        var c = el('td', 'hc');
        var v = w === null ? undefined : s.h[k];
        if (v !== undefined && maxH[k] > 0) {
          c.style.background = 'rgba(52,101,164,' + (0.05 + 0.9 * v / maxH[k]).toFixed(3) + ')';
          c.title = h + ': ' + v.toExponential(2);
        }
        row.appendChild(c);
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    view.appendChild(table);
  }

  document.querySelectorAll('select.att-select').forEach(function (select) {
    var product = data.products[+select.dataset.productIndex];
    product.reviews.forEach(function (r, i) {
      var first = r.sentences.length ? r.sentences[0].t : '';
      var label = '#' + r.id + rating(r.rating) + ' \u2014 ' +
          Array.from(first).slice(0, 48).join('') + (Array.from(first).length > 48 ? '\u2026' : '');
      var option = el('option', null, label.replace(BIDI, ''));
      option.value = String(i);
      select.appendChild(option);
    });
    select.addEventListener('change', function () { renderAttention(select); });
    if (product.reviews.length) renderAttention(select);
  });
})();
)js";

}  // namespace revsum::report_internal
