// Advice Studio embed. A partner page adds the interview with one tag:
//   <script src="https://STUDIO/static/embed.js" data-advice-set="ID" data-key="KEY" async></script>
// It inserts an iframe right after the tag and keeps it as tall as the interview inside (the frame posts its height
// on every change). Authors' previews use data-preview="draft" instead of a key (a signed-in studio session).
(function () {
  'use strict'
  var script = document.currentScript
  if (!script || !script.src) return
  var studio = new URL(script.src, location.href).origin
  var adviceSetId = script.getAttribute('data-advice-set') || ''
  var key = script.getAttribute('data-key')
  var preview = script.getAttribute('data-preview') === 'draft'
  if (!/^[1-9]\d*$/.test(adviceSetId) || (!key && !preview)) {
    console.error('Advice Studio embed: the script tag needs data-advice-set (the advice set id) and data-key (an API key with allowed origins).')
    return
  }
  var src = new URL('/adviceset/' + adviceSetId + '/embed', studio)
  if (key) src.searchParams.set('key', key)
  else src.searchParams.set('preview', 'draft')

  var frame = document.createElement('iframe')
  frame.src = src.href
  frame.title = script.getAttribute('data-title') || 'Advice interview'
  frame.className = 'advice-studio-embed'
  // Through the style object, not a style attribute, so a partner CSP without 'unsafe-inline' styles allows it.
  frame.style.display = 'block'
  frame.style.width = '100%'
  frame.style.border = '0'
  frame.style.height = '320px'
  script.parentNode.insertBefore(frame, script.nextSibling)

  window.addEventListener('message', function (event) {
    if (event.origin !== studio || event.source !== frame.contentWindow) return
    var data = event.data
    if (!data || data.type !== 'advicestudio:resize' || typeof data.height !== 'number' || !(data.height >= 0)) return
    frame.style.height = Math.ceil(data.height) + 'px'
  })
})()
