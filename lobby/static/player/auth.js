// Registering and logging in. Every refusal shows the server's own sentence and rule ID under the form.

function field(form, name) {
  return form.elements.namedItem(name);
}

async function busy(form, work) {
  const button = form.querySelector("button[type=submit]");
  const error = form.querySelector(".error");
  error.textContent = "";
  button.disabled = true;
  try {
    await work();
  } catch (e) {
    error.textContent = e.text || e.message || String(e);
  } finally {
    button.disabled = false;
  }
}

export function setupAuth(app) {
  const login = document.getElementById("login-form");
  const register = document.getElementById("register-form");

  async function logIn(nickname, password) {
    const answer = await app.room.request("login", { nickname, password, client: "browser" });
    app.signedIn(answer);
    field(login, "password").value = "";
    field(register, "password").value = "";
    if (!location.hash || location.hash === "#login") app.go("#lobby");
    else app.route();
  }

  login.addEventListener("submit", (ev) => {
    ev.preventDefault();
    busy(login, () => logIn(field(login, "nickname").value.trim(), field(login, "password").value));
  });

  register.addEventListener("submit", (ev) => {
    ev.preventDefault();
    busy(register, async () => {
      const nickname = field(register, "nickname").value.trim();
      const password = field(register, "password").value;
      await app.room.request("register", {
        nickname, password, birth_date: field(register, "birth_date").value, country: field(register, "country").value,
      });
      field(login, "nickname").value = nickname;
      await logIn(nickname, password);
    });
  });
}
