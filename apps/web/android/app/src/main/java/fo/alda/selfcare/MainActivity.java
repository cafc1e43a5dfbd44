package fo.alda.selfcare;

import android.os.Bundle;
import androidx.webkit.WebSettingsCompat;
import androidx.webkit.WebViewFeature;
import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        // Creates the bridge and its WebView (none when the device has no WebView at all).
        super.onCreate(savedInstanceState);
        // Passkeys (WebAuthn) in the WebView, which has them off by default. FOR_APP: only for
        // relying parties linked to this app by Digital Asset Links (the domain's assetlinks.json
        // with delegate_permission/common.get_login_creds). The client data then names the app,
        // origin android:apk-key-hash:<base64url SHA-256 of the signing certificate>, not the
        // page. An Android System WebView without the feature keeps WebAuthn off.
        if (this.bridge != null
                && WebViewFeature.isFeatureSupported(WebViewFeature.WEB_AUTHENTICATION)) {
            WebSettingsCompat.setWebAuthenticationSupport(
                this.bridge.getWebView().getSettings(),
                WebSettingsCompat.WEB_AUTHENTICATION_SUPPORT_FOR_APP
            );
        }
    }
}
