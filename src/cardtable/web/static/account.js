// The account page: sign in, sign up, sign out (the session is an HttpOnly cookie).
"use strict";

function showSignedIn(me) {
  const signedIn = Boolean(me && me.account);
  document.getElementById("signed-in").hidden = !signedIn;
  document.getElementById("signed-out").hidden = signedIn;
  if (signedIn) {
    const link = document.getElementById("signed-in-name");
    link.textContent = me.name;
    link.href = `/people/${encodeURIComponent(me.name)}`;
  }
  CT.showMe(me);
}

function onSubmit(formId, errorId, send) {
  document.getElementById(formId).addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById(errorId);
    error.textContent = "";
    try {
      showSignedIn(await send());
      // A password stays in no field once it has been used.
      for (const form of document.querySelectorAll("#signed-out form")) form.reset();
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
}

onSubmit("sign-in-form", "sign-in-error", () => CT.api("POST", "/api/session", {
  name: document.getElementById("sign-in-name").value,
  password: document.getElementById("sign-in-password").value,
}));
onSubmit("sign-up-form", "sign-up-error", () => CT.api("POST", "/api/accounts", {
  name: document.getElementById("sign-up-name").value,
  password: document.getElementById("sign-up-password").value,
}));
document.getElementById("sign-out").addEventListener("click", async () => {
  showSignedIn(await CT.api("DELETE", "/api/session"));
});

(async () => showSignedIn(await CT.whoami()))();
