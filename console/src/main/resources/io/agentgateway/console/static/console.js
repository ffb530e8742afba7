// The console's own script (no inline script anywhere: the Content-Security-Policy allows only files like this one).
// It says whether the page is live, counts time down, and gives the keyboard shortcuts; everything else is htmx.
(function () {
  'use strict';
  var HEARTBEAT_GRACE_MS = 10000;
  var lastBeat = 0;

  function status(state, text) {
    var el = document.getElementById('live-status');
    if (!el) { return; }
    if (el.getAttribute('data-state') !== state) {
      el.setAttribute('data-state', state);
      el.textContent = text;
    }
  }

  document.addEventListener('htmx:sseMessage', function (evt) {
    var message = evt.detail || {};
    if (message.type === 'live') {
      lastBeat = Date.now();
      if (message.data === 'ok') {
        status('live', 'Live');
      } else if (message.data === 'starting') {
        status('connecting', 'Connecting…');
      } else {
        status('down', 'Not live: reload to see changes');
      }
    } else if (message.type === 'approvals' || message.type === 'kill-switch') {
      var changed = document.getElementById('changed');
      if (changed && (document.getElementById('approval-watch') || document.getElementById('switch-watch'))) {
        changed.hidden = false;
      }
    }
  });
  // a page without live updates (the admin pages) says nothing about being live
  document.addEventListener('DOMContentLoaded', function () {
    var el = document.getElementById('live-status');
    if (el && document.body && !document.body.hasAttribute('sse-connect')) { el.hidden = true; }
  });
  document.addEventListener('htmx:sseError', function () { status('down', 'Not live: reload to see changes'); });
  setInterval(function () {
    if (document.body && document.body.hasAttribute('sse-connect') && Date.now() - lastBeat > HEARTBEAT_GRACE_MS && lastBeat !== 0) {
      status('down', 'Not live: reload to see changes');
    }
  }, 2000);
  setTimeout(function () {
    if (lastBeat === 0 && document.body && document.body.hasAttribute('sse-connect')) {
      status('down', 'Not live: reload to see changes');
    }
  }, HEARTBEAT_GRACE_MS);

  // time left, counted down every second from the server's expiry
  function left(seconds) {
    if (seconds <= 0) { return 'expired'; }
    var d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    if (d > 0) { return d + ' d ' + h + ' h'; }
    if (h > 0) { return h + ' h ' + m + ' min'; }
    if (m > 0) { return m + ' min ' + s + ' s'; }
    return s + ' s';
  }
  setInterval(function () {
    var els = document.querySelectorAll('[data-expires]');
    for (var i = 0; i < els.length; i++) {
      var seconds = Math.floor((Date.parse(els[i].getAttribute('data-expires')) - Date.now()) / 1000);
      var text = left(seconds) + (seconds > 0 ? ' left' : '');
      els[i].textContent = els[i].textContent.charAt(0) === '(' ? '(' + text + ')' : text;
    }
  }, 1000);

  // keyboard shortcuts: j/k/Enter in the inbox, a/r on an approval, ? for help
  var selected = -1;
  function items() { return document.querySelectorAll('.inbox .item'); }
  function select(index) {
    var list = items();
    if (list.length === 0) { return; }
    selected = Math.max(0, Math.min(index, list.length - 1));
    for (var i = 0; i < list.length; i++) { list[i].classList.toggle('is-selected', i === selected); }
    var link = list[selected].querySelector('a.open');
    if (link) { link.focus(); }
  }
  document.addEventListener('keydown', function (evt) {
    var target = evt.target;
    if (evt.ctrlKey || evt.metaKey || evt.altKey) { return; }
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable)) { return; }
    if (evt.key === 'j') { select(selected + 1); evt.preventDefault(); }
    else if (evt.key === 'k') { select(selected - 1); evt.preventDefault(); }
    else if (evt.key === 'a') {
      var approve = document.getElementById('approve-button');
      if (approve) { var confirm = document.getElementById('confirm-critical'); (confirm || approve).focus(); evt.preventDefault(); }
    } else if (evt.key === 'r') {
      var reason = document.getElementById('reject-reason');
      if (reason) { reason.focus(); evt.preventDefault(); }
    } else if (evt.key === '?') {
      var help = document.getElementById('help');
      if (help) { help.hidden = !help.hidden; evt.preventDefault(); }
    }
  });

  // the workspace picker of the kill-switch page navigates on change (a plain GET form works without this script)
  document.addEventListener('change', function (evt) {
    var pattern = evt.target && evt.target.getAttribute && evt.target.getAttribute('data-navigate');
    if (pattern && /^[0-9a-f-]{36}$/.test(evt.target.value)) {
      window.location.assign(pattern.replace('{}', evt.target.value));
    }
  });

  // copy buttons: the text of the element data-copy names, to the clipboard (the button says it worked)
  document.addEventListener('click', function (evt) {
    var button = evt.target && evt.target.closest ? evt.target.closest('[data-copy]') : null;
    if (!button) { return; }
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) { return; }
    var text = source.textContent;
    function done() { button.setAttribute('data-copied', 'true'); button.setAttribute('aria-label', 'Copied'); }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { select(source); });
    } else {
      select(source);
    }
  });
  function select(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
})();
