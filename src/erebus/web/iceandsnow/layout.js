// Whether the screen is a phone's (the map scrolls sideways at a readable scale and
// the other seats' boards fold), and a call when that changes.

const PHONE_MQ = typeof matchMedia === "function" ? matchMedia("(max-width: 600px)") : null;
export function isPhone() { return !!(PHONE_MQ && PHONE_MQ.matches); }
export function onPhoneChange(fn) { if (PHONE_MQ && PHONE_MQ.addEventListener) PHONE_MQ.addEventListener("change", fn); }
