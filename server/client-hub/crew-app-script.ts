/**
 * The crew's phone app (docs/crew.md, "The phone"): its own small script, not the office UI. The
 * list comes from GET /crew/api/week (kept by the service worker for no signal); every action gets
 * its id and time on the phone, waits in IndexedDB and goes out in order, one at a time, on open
 * and whenever the phone is back online. Served as written: no build step, so the hosted hub and an
 * install serve the same bytes.
 */
export const CREW_APP_JS = `
import { addPasskey, passkeysWork, signInWithPasskey, signOut } from '/crew/passkey.js';

const B32 = '0123456789abcdefghjkmnpqrstvwxyz';
function newId(prefix) {
  let t = Date.now(), time = '';
  for (let i = 0; i < 10; i++) { time = B32[t % 32] + time; t = Math.floor(t / 32); }
  const random = crypto.getRandomValues(new Uint8Array(16));
  let rest = '';
  for (const byte of random) rest += B32[byte % 32];
  return prefix + '_' + time + rest;
}

function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('crew', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
async function store(mode, run) {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction('outbox', mode);
    const result = run(tx.objectStore('outbox'));
    tx.oncomplete = () => resolve(result && 'result' in result ? result.result : undefined);
    tx.onerror = () => reject(tx.error);
  });
}
const waiting = () => store('readonly', (s) => s.getAll());
const enqueue = (item) => store('readwrite', (s) => s.add(item));
const dequeue = (seq) => store('readwrite', (s) => s.delete(seq));

let week = null;
let tab = 'today';
let openVisit = null;
let sending = false;
// A flush asked for while one runs: that one may have read the queue just before the new entry.
let flushAgain = false;
let notice = null;
const draftPhotos = [];

const el = (tag, attrs, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v); else if (v != null) node.setAttribute(k, v);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
};

function dayKey(iso) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: week.timezone, dateStyle: 'short' }).format(new Date(iso));
}
function time(iso) {
  return new Intl.DateTimeFormat(undefined, { timeZone: week.timezone, weekday: 'short', hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
}
function money(cents) {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: week.currency }).format(cents / 100);
}

async function load() {
  try {
    const response = await fetch('/crew/api/week', { credentials: 'same-origin' });
    if (response.status === 401) return showSignedOut();
    if (response.ok) week = await response.json();
  } catch (error) {
    // No signal and nothing kept yet: the message below says so.
  }
  render();
}

/** The sign-in page a signed-out member meets: their invitation link, or a passkey they added. */
function showSignedOut() {
  week = null;
  document.querySelector('nav.tabs').hidden = true;
  document.getElementById('who').textContent = 'Sign in';
  const said = el('p', { role: 'alert', class: 'muted' });
  const parts = [el('p', {}, 'Open the link your team sent you to sign in on this phone.')];
  if (passkeysWork()) {
    parts.push(el('p', {}, 'Added a passkey already? Use it instead of a new link.'),
      el('div', { class: 'actions' }, el('button', { type: 'button', onclick: async () => {
        said.textContent = '';
        try { location.assign(await signInWithPasskey()); } catch (error) { said.textContent = 'Not signed in: ' + error.message; }
      } }, 'Sign in with a passkey')), said);
  }
  document.getElementById('screen').replaceChildren(...parts);
}

async function render() {
  const screen = document.getElementById('screen');
  const queue = await waiting();
  document.getElementById('status').textContent = navigator.onLine ? '' : 'No signal: showing the last list.';
  for (const button of document.querySelectorAll('nav.tabs button'))
    button.setAttribute('aria-pressed', String(button.dataset.tab === tab && !openVisit));
  if (!week) { screen.replaceChildren(el('p', { class: 'muted' }, 'No list yet: open the app once with signal.')); return; }
  document.getElementById('who').textContent = week.member.name ? week.member.name + "'s visits" : 'Your visits';
  const parts = [];
  if (queue.length) {
    parts.push(el('div', { class: 'waiting', 'data-testid': 'waiting' },
      queue.length + ' waiting to send: ' + queue.map((q) => label(q.action.kind)).join(', ')));
  }
  if (openVisit) parts.push(...visitScreen(week.visits.find((v) => v.id === openVisit), queue));
  else if (tab === 'clock') parts.push(...clockScreen(queue));
  else if (tab === 'you') parts.push(...youScreen(queue));
  else parts.push(...listScreen(queue));
  screen.replaceChildren(...parts);
}

const label = (kind) => ({ on_my_way: 'On my way', start: 'Start', complete: 'Complete', clock_in: 'Clock in', clock_out: 'Clock out', photo: 'Photo' })[kind] || kind;

/** A visit's status with what waits to be sent counted, so a Complete done offline shows at once. */
function statusOf(v, queue) {
  const waits = (kind) => queue.some((q) => q.action.kind === kind && q.action.job_id === v.id);
  if (waits('complete')) return 'completed';
  if (waits('start') && v.status === 'scheduled') return 'in progress';
  return v.status.replace('_', ' ');
}

function listScreen(queue) {
  const today = dayKey(new Date().toISOString());
  const visits = week.visits.filter((v) => tab === 'week' || dayKey(v.scheduled_start) <= today);
  if (!visits.length) return [el('p', { class: 'muted' }, tab === 'today' ? 'No visits today.' : 'No visits this week.')];
  return visits.map((v) => el('div', { class: 'card' },
    el('a', { class: 'open', href: '#' + v.id, onclick: (e) => { e.preventDefault(); openVisit = v.id; render(); } },
      el('span', {}, el('strong', {}, v.customer.name), el('br'), v.title),
      el('span', { class: 'num' }, time(v.scheduled_start), el('br'), el('span', { class: 'badge open' }, statusOf(v, queue)))),
    v.address ? el('p', { class: 'muted' }, el('a', { href: 'https://maps.google.com/?q=' + encodeURIComponent(v.address) }, v.address)) : null));
}

function visitScreen(v, queue) {
  if (!v) { openVisit = null; return listScreen(queue); }
  const done = (kind) => queue.some((q) => q.action.kind === kind && q.action.job_id === v.id);
  const parts = [
    el('p', {}, el('a', { href: '#', onclick: (e) => { e.preventDefault(); openVisit = null; render(); } }, '‹ All visits')),
    el('h2', {}, v.customer.name + ': ' + v.title),
    el('p', { class: 'muted' }, time(v.scheduled_start) + ' · ' + v.number),
  ];
  if (v.address) parts.push(el('p', {}, el('a', { href: 'https://maps.google.com/?q=' + encodeURIComponent(v.address) }, v.address)));
  if (v.customer.phone) parts.push(el('p', {}, el('a', { href: 'tel:' + v.customer.phone }, 'Call ' + v.customer.phone)));
  if (v.access_notes) parts.push(el('div', { class: 'card' }, el('strong', {}, 'Access: '), v.access_notes));
  if (v.price_cents != null) parts.push(el('p', {}, 'Price: ' + money(v.price_cents)));
  const list = el('div', { class: 'checklist' }, ...v.checklist.map((item, i) =>
    el('label', {}, el('input', { type: 'checkbox', 'data-item': item, id: 'check' + i }), item)));
  const note = el('textarea', { id: 'note', rows: '3', placeholder: 'Note for the office' });
  const signed = el('input', { type: 'text', id: 'signed', placeholder: "Customer's name (sign-off)" });
  const file = el('input', { type: 'file', accept: 'image/*', capture: 'environment', id: 'photo', onchange: (e) => addPhoto(v.id, e.target.files[0]) });
  const thumbs = el('div', { class: 'photos' }, ...draftPhotos.filter((p) => p.job_id === v.id).map((p) => el('img', { src: 'data:image/jpeg;base64,' + p.data, alt: 'Photo' })));
  const finished = v.status === 'completed' || done('complete');
  parts.push(el('div', { class: 'actions' },
    el('button', { type: 'button', class: 'secondary', onclick: () => act('on_my_way', v.id, { eta_minutes: 30 }) }, 'On my way'),
    v.status === 'scheduled' && !done('start') ? el('button', { type: 'button', onclick: () => act('start', v.id, {}) }, 'Start') : null));
  if (finished) parts.push(el('p', { class: 'badge good' }, 'Completed'));
  else parts.push(el('h2', {}, 'Complete'), list, el('label', {}, 'Photos ', file), thumbs, note, signed,
    el('div', { class: 'actions' }, el('button', { type: 'button', onclick: () => complete(v) }, 'Complete visit')));
  return parts;
}

function clockScreen(queue) {
  const last = queue.filter((q) => q.action.kind === 'clock_in' || q.action.kind === 'clock_out').at(-1);
  return [el('h2', {}, 'Hours'), el('p', { class: 'muted' }, last ? 'Last: ' + label(last.action.kind) : 'Clock in when you start, out when you stop.'),
    el('div', { class: 'actions' },
      el('button', { type: 'button', onclick: () => act('clock_in', null, {}) }, 'Clock in'),
      el('button', { type: 'button', class: 'secondary', onclick: () => act('clock_out', null, {}) }, 'Clock out'))];
}

/** The member's own: a passkey for signing in without a link, and signing out (once nothing waits). */
function youScreen(queue) {
  const parts = [el('h2', {}, week.member.name || 'You')];
  if (notice) parts.push(el('p', { role: 'status', class: 'card' }, notice));
  if (passkeysWork()) {
    parts.push(el('p', { class: 'muted' }, "A passkey signs you in with this phone's fingerprint or face unlock, without a new link."),
      el('div', { class: 'actions' }, el('button', { type: 'button', onclick: async () => {
        try { await addPasskey(); notice = 'Passkey added: sign in with it next time.'; } catch (error) { notice = 'No passkey added: ' + error.message; }
        render();
      } }, 'Add a passkey')));
  }
  parts.push(el('div', { class: 'actions' }, el('button', { type: 'button', class: 'secondary', disabled: queue.length ? '' : null, onclick: async () => {
    try {
      await signOut();
      if ('caches' in window) await caches.open('crew-v2').then((cache) => cache.delete('/crew/api/week'));
      notice = null;
      showSignedOut();
    } catch (error) { notice = 'Not signed out: ' + error.message; render(); }
  } }, 'Sign out')));
  if (queue.length) parts.push(el('p', { class: 'muted' }, 'Sign out once what is waiting has been sent.'));
  return parts;
}

/** Longest side 1,600 px, JPEG, so a phone's 12 MP photo becomes a few hundred KB. */
async function addPhoto(jobId, file) {
  if (!file) return;
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const data = canvas.toDataURL('image/jpeg', 0.82).split(',')[1];
  const photo = { id: newId('jph'), job_id: jobId, content_type: 'image/jpeg', data };
  draftPhotos.push(photo);
  await enqueue({ photo, action: { kind: 'photo', job_id: jobId } });
  render();
  flush();
}

async function complete(v) {
  const checklist = [...document.querySelectorAll('.checklist input')].map((box) => ({ item: box.dataset.item, done: box.checked }));
  const note = document.getElementById('note').value.trim() || null;
  const signed = document.getElementById('signed').value.trim() || null;
  const photos = draftPhotos.filter((p) => p.job_id === v.id).map((p) => p.id);
  await act('complete', v.id, { checklist, note, photo_ids: photos, signed_by: signed });
}

async function act(kind, jobId, payload) {
  await enqueue({ action: { id: newId('cra'), kind, job_id: jobId, done_at: new Date().toISOString(), payload } });
  await render();
  flush();
}

/** One at a time, in the order they were done; a refusal is the answer, a lost connection waits. */
async function flush() {
  if (!navigator.onLine) return;
  if (sending) {
    flushAgain = true;
    return;
  }
  sending = true;
  flushAgain = false;
  try {
    // Read again each time: what is done while one is out goes in the same round.
    let item;
    while ((item = (await waiting())[0])) {
      const path = item.photo ? '/crew/api/photos' : '/crew/api/actions';
      let response;
      try {
        response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(item.photo || item.action), credentials: 'same-origin' });
      } catch (error) {
        break;
      }
      if (response.status === 429) {
        setTimeout(flush, (Number(response.headers.get('retry-after')) || 30) * 1000);
        break;
      }
      if (response.status >= 500 || response.status === 401) break;
      await dequeue(item.seq);
    }
  } finally {
    sending = false;
  }
  if (flushAgain && navigator.onLine) return flush();
  if ((await waiting()).length === 0) await load(); else await render();
}

for (const button of document.querySelectorAll('nav.tabs button'))
  button.addEventListener('click', () => { tab = button.dataset.tab; openVisit = null; render(); });
window.addEventListener('online', flush);
window.addEventListener('offline', render);
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/crew/sw.js', { scope: '/crew/' });
load().then(flush);
`;

/**
 * Keeps the app's files and the last list for no signal: the network first (the list must be
 * fresh when there is signal), the kept copy when it fails. Actions are never cached: they wait in
 * IndexedDB (app.js).
 */
export const CREW_SERVICE_WORKER = `
const CACHE = 'crew-v2';
const APP = ['/crew/', '/crew/app.js', '/crew/passkey.js', '/crew/app.css', '/crew/manifest.webmanifest'];
const KEPT = [...APP, '/crew/api/week'];
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(APP)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (event) => event.waitUntil(
  caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()),
));
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || !KEPT.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((kept) => kept || Response.error())),
  );
});
`;
